import { request } from 'node:https';
import { RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { PluginHttp } from '../../core/plugins/ports/plugin-http.port';
import type { PluginFetchRequest, PluginFetchResponse } from '../../core/plugins/ports/plugin-sandbox.port';
import { ValidationError } from '../../core/shared/errors';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_REQUEST_BYTES = 256 * 1024;
const DROPPED_REQUEST_HEADERS = new Set(['host', 'connection', 'transfer-encoding', 'content-length', 'proxy-authorization', 'upgrade']);

/** A refusal the plugin may read (the host passes its message through). */
class FetchRefused extends ValidationError {}

export interface PluginHttpOptions {
  timeoutMs?: number;
  /** Extra trust for tests: certificate authorities of a local TLS server. */
  ca?: string | Buffer;
  /** Ranges request-filtering-agent should allow (tests only); production leaves private ranges closed. */
  allowIPAddressList?: string[];
}

/**
 * `platform.fetch` (EXTENSIONS.md): https only, host in the manifest's `permissions.hosts`, every resolved
 * address checked by request-filtering-agent (private, loopback, link-local, metadata refused) on the
 * connection actually used, redirects not followed, 5 s timeout, response capped at 1 MB.
 */
export class FilteredHttpsPluginHttp implements PluginHttp {
  private readonly agent: RequestFilteringHttpsAgent;

  constructor(private readonly options: PluginHttpOptions = {}) {
    this.agent = new RequestFilteringHttpsAgent({ keepAlive: false, ca: options.ca, allowIPAddressList: options.allowIPAddressList ?? [] });
  }

  fetch(req: PluginFetchRequest, allowedHosts: string[]): Promise<PluginFetchResponse> {
    let url: URL;
    try {
      url = new URL(String(req.url));
    } catch {
      return Promise.reject(new FetchRefused('fetch: the URL is not valid'));
    }
    if (url.protocol !== 'https:') return Promise.reject(new FetchRefused('fetch: only https URLs may be fetched'));
    const host = url.hostname.toLowerCase();
    if (!allowedHosts.includes(host)) return Promise.reject(new FetchRefused(`fetch: ${host} is not in the plugin's permissions.hosts`));
    if (url.username || url.password) return Promise.reject(new FetchRefused('fetch: credentials in the URL are not allowed'));
    const method = String(req.method ?? 'GET').toUpperCase();
    if (!METHODS.has(method)) return Promise.reject(new FetchRefused(`fetch: method ${method} is not allowed`));
    const body = req.body === undefined || req.body === null ? undefined : String(req.body);
    if (body && Buffer.byteLength(body) > MAX_REQUEST_BYTES) return Promise.reject(new FetchRefused('fetch: request bodies are limited to 256 KB'));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers ?? {})) if (!DROPPED_REQUEST_HEADERS.has(k.toLowerCase()) && typeof v === 'string' && !/[\r\n]/.test(v)) headers[k] = v;

    return new Promise((resolve, reject) => {
      const r = request(url, { method, headers, agent: this.agent, timeout: this.options.timeoutMs ?? 5000 }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            r.destroy();
            reject(new FetchRefused('fetch: the response is larger than 1 MB'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && k !== 'set-cookie') out[k] = v;
          // Redirects are answered as they are, never followed (the next hop could be anywhere).
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (e) => reject(new FetchRefused(`fetch: ${e.message}`)));
      });
      r.on('timeout', () => r.destroy(new Error('timed out after 5 s')));
      r.on('error', (e) => reject(new FetchRefused(`fetch: ${e.message}`)));
      r.end(body);
    });
  }
}
