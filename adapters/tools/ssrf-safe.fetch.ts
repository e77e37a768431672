import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { urlProblemOf, type OutboundUrlRules } from '../../core/shared/outbound-url-rules.port';
import type { LookupFunction } from '../webhooks/ssrf-safe.webhook-sender';

/** A request the SSRF rules refused: no connection was made (or the connection's address was refused before any byte was sent). */
export class FetchRefused extends Error {}

export interface SsrfSafeFetchOptions {
  /** The webhooks' check of a URL (scheme, every address of the host), reused as is. */
  urlCheck: OutboundUrlRules;
  /** Private ranges an operator allows (WEBHOOKS_ALLOWED_PRIVATE_CIDRS). */
  allowedPrivateCidrs?: string[];
  /** Bytes one response may stream in all (an SSE stream included); past it the stream fails. */
  maxResponseBytes?: number;
  lookup?: LookupFunction;
  userAgent?: string;
}

/** `fetch`'s signature, as the MCP SDK's transports take it. */
export type SafeFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` over the same SSRF rules as the webhooks, workflows and http tools: the URL is checked first
 * (scheme, and every address its host resolves to), then the socket connects through
 * request-filtering-agent, which checks the address it actually connects to, so a name rebinding between
 * the check and the connection is refused too. Redirects are answered, never followed here; the body
 * streams (server-sent events work) up to `maxResponseBytes`.
 */
export function ssrfSafeFetch(options: SsrfSafeFetchOptions): SafeFetch {
  const filter = { allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: options.allowedPrivateCidrs ?? [], keepAlive: false };
  const httpAgent = new RequestFilteringHttpAgent(filter);
  const httpsAgent = new RequestFilteringHttpsAgent(filter);
  const max = options.maxResponseBytes ?? 4 * 1024 * 1024;

  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const problem = await options.urlCheck.problemWith(url.toString());
    if (problem) throw new FetchRefused(urlProblemOf(problem, 'the URL'));
    const headers: Record<string, string> = { 'user-agent': options.userAgent ?? 'ai-app-platform/1' };
    new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined)).forEach((value, name) => {
      if (name !== 'host' && name !== 'content-length' && name !== 'connection') headers[name] = value;
    });
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : Buffer.from(await new Response(init.body).arrayBuffer());
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted', 'AbortError');

    return new Promise<Response>((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method: init.method ?? 'GET', headers, agent: url.protocol === 'https:' ? httpsAgent : httpAgent, ...(options.lookup ? { lookup: options.lookup } : {}) },
        (res) => resolve(toResponse(res, max)),
      );
      const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError'));
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal?.removeEventListener('abort', onAbort));
      req.on('error', (error: Error) => {
        reject(/is not allowed/.test(error.message) ? new FetchRefused('the host resolves to a private or reserved address, which the platform may not call') : error);
      });
      req.end(body);
    });
  };
}

function toResponse(res: IncomingMessage, max: number): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (name === 'set-cookie' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const status = res.statusCode ?? 502;
  if (status === 204 || status === 304 || status < 200) {
    res.resume();
    return new Response(null, { status: status < 200 ? 502 : status, headers });
  }
  return new Response(boundedBody(res, max), { status, statusText: res.statusMessage, headers });
}

/**
 * The answer's body as a web stream of at most `max` bytes, paused while the reader is behind. Written
 * here rather than with Readable.toWeb, whose controller throws when a reader cancels an open SSE stream.
 */
function boundedBody(res: IncomingMessage, max: number): ReadableStream<Uint8Array> {
  let read = 0;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (end: () => void) => {
        if (finished) return;
        finished = true;
        end();
      };
      res.on('data', (chunk: Buffer) => {
        if (finished) return;
        read += chunk.length;
        if (read > max) {
          finish(() => controller.error(new Error(`the answer is larger than ${Math.round(max / 1024)} KB`)));
          res.destroy();
          return;
        }
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.on('end', () => finish(() => controller.close()));
      res.on('error', (error) => finish(() => controller.error(error)));
      res.on('close', () => finish(() => controller.error(new Error('the connection closed before the answer ended'))));
    },
    pull() {
      res.resume();
    },
    cancel() {
      finished = true;
      res.destroy();
    },
  });
}
