import { isIP } from 'node:net';
import type { Context, Next } from 'koa';
import type { GetHostedApplicationUseCase } from '../../../core/public-api/use-cases/get-hosted-application.use-case';
import type { RouteHostUseCase } from '../../../core/domains/use-cases/route-host.use-case';
import { serveHostedPage, serveNotFoundPage } from '../hosted-page/hosted-page.router';

/** What a custom domain serves besides its page: the widget script, its application's theme and page API. */
const passesThrough = (path: string, slug: string, applicationId: string) =>
  path === '/public/widget.js' || path === `/api/applications/${applicationId}/theme.css` || path.startsWith(`/api/hosted/${slug}/`);

/**
 * Routes requests by `Host` (or `X-Forwarded-Host` behind a trusted proxy): an active custom domain
 * gets its application's hosted chat page at `/`, with its settings: `www.` redirected when
 * `redirectWww`, plain HTTP redirected when `forceHttps` (the protocol as the proxy reports it with
 * TRUST_PROXY), its custom headers on every answer. The platform's own host, IPs and localhost pass.
 */
export function customDomainHost(d: { routes: RouteHostUseCase; page: GetHostedApplicationUseCase; platformHosts: string[] }) {
  const own = new Set(d.platformHosts.map((h) => h.toLowerCase()));
  return async (ctx: Context, next: Next): Promise<void> => {
    const host = (ctx.hostname || '').toLowerCase();
    if (!host || own.has(host) || isIP(host) || host === 'localhost' || host.endsWith('.localhost')) return next();
    const route = await d.routes.execute(host);
    if (!route) return next();
    const { settings, domain } = route.domain;
    for (const [name, value] of Object.entries(settings.customHeaders)) ctx.set(name, value);
    const scheme = settings.forceHttps ? 'https' : ctx.protocol;
    if (route.kind === 'redirect-www') return redirect(ctx, `${scheme}://${domain}${ctx.originalUrl}`);
    if (settings.forceHttps && ctx.protocol !== 'https') return redirect(ctx, `https://${domain}${ctx.originalUrl}`);
    if (ctx.path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return serveHostedPage(ctx, d.page, route.slug);
    if (passesThrough(ctx.path, route.slug, route.applicationId)) return next();
    serveNotFoundPage(ctx);
  };
}

function redirect(ctx: Context, location: string): void {
  ctx.status = ctx.method === 'GET' || ctx.method === 'HEAD' ? 301 : 308;
  ctx.set('Location', location);
  ctx.body = '';
}
