import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { urlProblemOf, type OutboundUrlRules } from '../../core/shared/outbound-url-rules.port';
import { HttpRefused, type HttpAnswer, type HttpCall, type WorkflowHttp } from '../../core/workflows/ports/step-services.port';
import type { LookupFunction } from '../webhooks/ssrf-safe.webhook-sender';

export interface WorkflowHttpOptions {
  /** The webhooks' SSRF check of a URL (scheme and every resolved address), reused as is. */
  urlCheck: OutboundUrlRules;
  /** Same as the webhooks': `http:` too (WEBHOOKS_ALLOW_HTTP) and the operator's private ranges. */
  allowHttp?: boolean;
  allowedPrivateCidrs?: string[];
  maxResponseBytes?: number;
  lookup?: LookupFunction;
}

const USER_AGENT = 'ai-app-platform-workflows/1';
/** Headers the platform sets itself. */
const DROPPED = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'user-agent']);

/**
 * `http` steps through the webhooks' SSRF rules: the URL is checked first (scheme, every address of the
 * host), then the socket connects through request-filtering-agent, which checks the address it actually
 * connects to (no second lookup to rebind). Redirects are answered as they are, never followed; the answer
 * is read up to `maxResponseBytes` (256 KB), and the exchange is cut at the call's timeout.
 */
export class SsrfSafeWorkflowHttp implements WorkflowHttp {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;

  constructor(private readonly options: WorkflowHttpOptions) {
    const filter = { allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: options.allowedPrivateCidrs ?? [], keepAlive: false };
    this.httpAgent = new RequestFilteringHttpAgent(filter);
    this.httpsAgent = new RequestFilteringHttpsAgent(filter);
  }

  async request(call: HttpCall): Promise<HttpAnswer> {
    const problem = await this.options.urlCheck.problemWith(call.url);
    if (problem) throw new HttpRefused(urlProblemOf(problem, 'the URL'));
    const url = new URL(call.url);
    const max = this.options.maxResponseBytes ?? 256 * 1024;
    const headers: Record<string, string | number> = { 'user-agent': USER_AGENT };
    for (const [k, v] of Object.entries(call.headers)) if (!DROPPED.has(k.toLowerCase())) headers[k] = v;
    if (call.body !== undefined) headers['content-length'] = Buffer.byteLength(call.body);
    return new Promise<HttpAnswer>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        { method: call.method, headers, agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent, ...(this.options.lookup ? { lookup: this.options.lookup } : {}) },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > max) {
              req.destroy();
              settle(() => reject(new HttpRefused(`the answer is larger than ${Math.round(max / 1024)} KB`)));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            const out: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && k !== 'set-cookie') out[k] = v;
            settle(() => resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') }));
          });
          res.on('error', (e) => settle(() => reject(e)));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        settle(() => reject(new Error(`no answer within ${call.timeoutMs} ms`)));
      }, call.timeoutMs);
      req.on('error', (e: Error) => {
        const refused = /is not allowed/.test(e.message);
        settle(() => reject(refused ? new HttpRefused('the host resolves to a private or reserved address, which the platform may not call') : e));
      });
      req.end(call.body);
    });
  }
}
