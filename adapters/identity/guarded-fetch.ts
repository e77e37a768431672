import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

export interface GuardedFetchOptions {
  /** `http:` too (SSO_ALLOW_HTTP, development only). */
  allowHttp: boolean;
  /** Private ranges identity providers may be in all the same (SSO_ALLOWED_PRIVATE_CIDRS). */
  allowedPrivateCidrs: string[];
  /** Bytes of an answer read at most. */
  maxResponseBytes?: number;
}

type FetchInit = { method?: string; headers?: Record<string, string> | Headers; body?: unknown; signal?: AbortSignal | null };

/**
 * A `fetch` for addresses that team admins type in (their OIDC issuer and what its discovery names): the
 * socket's own lookup goes through `request-filtering-agent`, which refuses loopback, private, link-local
 * (cloud metadata) and other internal addresses unless an allowed range holds them, so a configured issuer
 * cannot make the platform reach its own network. No redirects are followed; answers are read up to a limit.
 */
export function guardedFetch(options: GuardedFetchOptions) {
  const filter = { allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: options.allowedPrivateCidrs, keepAlive: false };
  const httpAgent = new RequestFilteringHttpAgent(filter);
  const httpsAgent = new RequestFilteringHttpsAgent(filter);
  const limit = options.maxResponseBytes ?? 1024 * 1024;
  return (input: string, init: FetchInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowHttp)) {
        reject(new TypeError(`refused to fetch ${url.protocol} URL`));
        return;
      }
      const headers: Record<string, string> = {};
      if (init.headers instanceof Headers) init.headers.forEach((value, key) => (headers[key] = value));
      else Object.assign(headers, init.headers ?? {});
      const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : String(init.body);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, { method: init.method ?? 'GET', headers, agent: url.protocol === 'https:' ? httpsAgent : httpAgent, signal: init.signal ?? undefined }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            res.destroy();
            reject(new TypeError('the identity provider answered too much'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) v.forEach((item) => out.append(k, item));
            else if (v !== undefined) out.set(k, v);
          }
          const status = res.statusCode ?? 502;
          resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: out }));
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
}
