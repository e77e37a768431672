import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** How a service's request listener is mounted in another server. */
export interface MountOptions {
  /**
   * The path prefix the service answers under (`'/platform'`): a request for `/platform/api/health` reaches
   * the service's `/api/health`. Not needed where the host server strips the prefix itself (Express's
   * `app.use('/platform', …)`); error texts show the path the client asked for either way.
   */
  basePath?: string;
}

/** A base path in one spelling: a leading slash, no trailing one, `''` for the root. */
export function normalizeBasePath(basePath: string | undefined): string {
  if (basePath === undefined || basePath === '' || basePath === '/') return '';
  if (typeof basePath !== 'string' || !basePath.startsWith('/') || /[?#\s]/.test(basePath) || basePath.includes('//')) {
    throw new TypeError(`basePath must be a path such as '/platform' (got ${JSON.stringify(basePath)})`);
  }
  return basePath.replace(/\/+$/, '');
}

/**
 * A request listener answering under `basePath`: strips the prefix before the service routes the request,
 * keeping the path as sent in `req.originalUrl` (as Express does) for the texts that name it. A request the
 * host server already stripped (its `originalUrl` set) passes as it is; any other path outside the prefix is
 * the service's 404.
 */
export function mountAt(listener: RequestListener, basePath: string): RequestListener {
  if (basePath === '') return listener;
  return (req: IncomingMessage, res: ServerResponse) => {
    const withOriginal = req as IncomingMessage & { originalUrl?: string };
    const url = req.url ?? '/';
    const rest = url.slice(basePath.length);
    if (url.startsWith(basePath) && (rest === '' || rest.startsWith('/') || rest.startsWith('?'))) {
      withOriginal.originalUrl ??= url;
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
    } else if (withOriginal.originalUrl === undefined || withOriginal.originalUrl === url) {
      const path = url.split('?')[0];
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ statusCode: 404, message: `Cannot ${req.method} ${path}`, error: 'Not Found' }));
      return;
    }
    listener(req, res);
  };
}
