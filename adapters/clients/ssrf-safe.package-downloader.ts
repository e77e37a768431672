import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { PackageDownloader } from '../../core/marketplace/ports/package-downloader.port';
import { UnavailableError, UpstreamError, ValidationError } from '../../core/shared/errors';

export interface PackageDownloaderOptions {
  /** MARKETPLACE_URL: packages it serves itself are fetched with the service token, wherever it runs. */
  marketplaceUrl?: string;
  marketplaceToken?: string;
  timeoutMs?: number;
}

/**
 * Downloads marketplace packages. A `downloadUrl` on the configured marketplace's own origin is fetched
 * with the service token (that origin is the operator's choice and may be on a private network); any other
 * URL must be https and goes through request-filtering-agent, which refuses the connection when the host
 * resolves to a loopback, private, link-local or metadata address (checked on the socket actually used).
 * Redirects are not followed; the body is cut at `maxBytes`.
 */
export class SsrfSafePackageDownloader implements PackageDownloader {
  private readonly httpAgent = new RequestFilteringHttpAgent({ allowPrivateIPAddress: false, allowMetaIPAddress: false, keepAlive: false });
  private readonly httpsAgent = new RequestFilteringHttpsAgent({ allowPrivateIPAddress: false, allowMetaIPAddress: false, keepAlive: false });
  private readonly trustedOrigin: string | null;

  constructor(private readonly options: PackageDownloaderOptions = {}) {
    this.trustedOrigin = options.marketplaceUrl ? new URL(options.marketplaceUrl).origin : null;
  }

  download(url: string, maxBytes: number): Promise<Buffer> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return Promise.reject(ValidationError.field('downloadUrl', 'the version\'s downloadUrl is not a valid URL'));
    }
    if (parsed.username || parsed.password) return Promise.reject(ValidationError.field('downloadUrl', 'the version\'s downloadUrl carries credentials'));
    const trusted = this.trustedOrigin !== null && parsed.origin === this.trustedOrigin;
    if (!trusted && parsed.protocol !== 'https:') return Promise.reject(ValidationError.field('downloadUrl', 'the version\'s downloadUrl must use https'));
    const headers: Record<string, string> = { Accept: 'application/zip, application/octet-stream' };
    if (trusted && this.options.marketplaceToken) headers.Authorization = `Bearer ${this.options.marketplaceToken}`;
    const send = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = trusted ? undefined : parsed.protocol === 'https:' ? this.httpsAgent : this.httpAgent;
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    return new Promise<Buffer>((resolve, reject) => {
      const req = send(parsed, { method: 'GET', headers, agent, timeout: timeoutMs }, (res: IncomingMessage) => {
        if ((res.statusCode ?? 0) !== 200) {
          res.resume();
          reject(new UpstreamError(`The package download answered ${res.statusCode}`, 502));
          return;
        }
        if (Number(res.headers['content-length']) > maxBytes) {
          res.destroy();
          reject(ValidationError.field('fileSize', `the package is larger than ${maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(ValidationError.field('fileSize', `the package is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', (e) => reject(new UpstreamError(`The package download failed: ${e.message}`, 502)));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', (e: Error & { code?: string }) => {
        // request-filtering-agent refuses with a message naming the address and why.
        if (/is not allowed/i.test(e.message)) reject(ValidationError.field('downloadUrl', 'the version\'s downloadUrl points at a private, loopback or link-local address'));
        else reject(new UnavailableError(`The package could not be downloaded (${e.code ?? e.message})`));
      });
      req.end();
    });
  }
}
