import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ForwardMarketplaceRequestUseCase, QueryKey } from '../../../core/marketplace/use-cases/forward-marketplace-request.use-case';
import type { ListMyMarketplaceLicensesUseCase } from '../../../core/marketplace/use-cases/list-my-marketplace-licenses.use-case';
import type { InstallMarketplaceThemeUseCase } from '../../../core/marketplace/use-cases/install-marketplace-theme.use-case';
import type { MarketplaceAdminOverviewUseCase } from '../../../core/marketplace/use-cases/marketplace-admin.use-case';
import type { UpgradeMarketplacePluginUseCase } from '../../../core/marketplace/use-cases/upgrade-marketplace-plugin.use-case';
import type { ListMarketplaceUpdatesUseCase, MarkUpdatedUseCase } from '../../../core/marketplace/use-cases/updates';
import type { CatalogRequest } from '../../../core/marketplace/ports/marketplace-catalog.port';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

type Method = CatalogRequest['method'];

interface Forwarded {
  method: Method;
  /** The path under `/api/marketplace` (and `/marketplace`), the same at the marketplace. */
  path: string;
  /** Requires a signed-in user, who is forwarded as the acting user. */
  auth: boolean;
  query?: readonly QueryKey[];
  /** Another spelling of the path (SPEC 4.9's `/marketplace/featured` for `/marketplace/plugins/featured`). */
  target?: string;
}

const BROWSE: readonly QueryKey[] = ['page', 'limit', 'search', 'category', 'sort'];
const REVIEWS: readonly QueryKey[] = ['limit', 'skip'];
const PAGES: readonly QueryKey[] = ['page', 'limit'];

/** Every SPEC 4.9 endpoint the marketplace answers, forwarded as it is (plus featuring, licenses, your submissions and the pending count). */
export const FORWARDED: readonly Forwarded[] = [
  { method: 'GET', path: '/browse', auth: false, query: BROWSE },
  { method: 'GET', path: '/plugins/featured', auth: false },
  { method: 'GET', path: '/featured', auth: false, target: '/plugins/featured' },
  { method: 'GET', path: '/plugins/categories', auth: false },
  { method: 'GET', path: '/categories', auth: false, target: '/plugins/categories' },
  { method: 'GET', path: '/plugins/:id', auth: false },
  { method: 'GET', path: '/plugins/:id/reviews', auth: false, query: REVIEWS },
  { method: 'POST', path: '/plugins/:id/reviews', auth: true },
  { method: 'DELETE', path: '/plugins/:id/reviews', auth: true },
  { method: 'GET', path: '/plugins/:id/versions', auth: false },
  { method: 'GET', path: '/plugins/:id/versions/:version', auth: false },
  { method: 'POST', path: '/plugins/:id/versions', auth: true },
  { method: 'GET', path: '/plugins/:id/licenses', auth: true },
  { method: 'POST', path: '/plugins/:id/licenses', auth: true },
  { method: 'DELETE', path: '/plugins/:id/licenses/:userId', auth: true },
  { method: 'GET', path: '/themes', auth: false, query: BROWSE },
  { method: 'GET', path: '/themes/featured', auth: false },
  { method: 'GET', path: '/themes/categories', auth: false },
  { method: 'GET', path: '/themes/:id', auth: false },
  { method: 'GET', path: '/themes/:id/reviews', auth: false, query: REVIEWS },
  { method: 'POST', path: '/themes/:id/reviews', auth: true },
  { method: 'DELETE', path: '/themes/:id/reviews', auth: true },
  { method: 'POST', path: '/submit/plugin', auth: true },
  { method: 'POST', path: '/submit/theme', auth: true },
  { method: 'GET', path: '/submissions', auth: true },
  { method: 'GET', path: '/admin/pending/count', auth: true },
  { method: 'GET', path: '/admin/pending/plugins', auth: true, query: PAGES },
  { method: 'GET', path: '/admin/pending/themes', auth: true, query: PAGES },
  { method: 'POST', path: '/admin/plugins/:id/approve', auth: true },
  { method: 'POST', path: '/admin/plugins/:id/reject', auth: true },
  { method: 'PUT', path: '/admin/plugins/:id/featured', auth: true },
  { method: 'POST', path: '/admin/themes/:id/approve', auth: true },
  { method: 'POST', path: '/admin/themes/:id/reject', auth: true },
  { method: 'PUT', path: '/admin/themes/:id/featured', auth: true },
];

export interface MarketplaceRouterDeps {
  auth: Middleware;
  forward: ForwardMarketplaceRequestUseCase;
  updates: ListMarketplaceUpdatesUseCase;
  markUpdated: MarkUpdatedUseCase;
  upgrade: UpgradeMarketplacePluginUseCase;
  installTheme: InstallMarketplaceThemeUseCase;
  myLicenses: ListMyMarketplaceLicensesUseCase;
}

/**
 * `/api/marketplace/*` and its `/marketplace/*` alias (SPEC: the same endpoints): the catalog endpoints
 * forwarded to the marketplace through the `MarketplaceCatalog` port, and the core's own updates,
 * upgrade and theme install. Answers of the marketplace keep their status and body.
 */
export function marketplaceRouters(d: MarketplaceRouterDeps): Router[] {
  return ['/api/marketplace', '/marketplace'].map((prefix) => {
    const r = new Router({ prefix });
    // The core's own routes first: `/updates/count` is not a forwarded path.
    r.get('/updates/count', d.auth, async (ctx) => {
      ctx.body = await d.updates.count(actorOf(ctx));
    });
    r.get('/updates', d.auth, async (ctx) => {
      ctx.body = await d.updates.list(actorOf(ctx));
    });
    r.patch('/updates/:installedPluginId/mark-updated', d.auth, async (ctx) => {
      ctx.body = await d.markUpdated.execute(ctx.params.installedPluginId, ctx.request.body, actorOf(ctx));
    });
    r.post('/updates/:installedPluginId/upgrade', d.auth, async (ctx) => {
      ctx.body = await d.upgrade.execute(ctx.params.installedPluginId, ctx.request.body ?? {}, actorOf(ctx));
    });
    // The caller's own licenses (an array with X-Total-Count); `/licenses` is no forwarded path, nor a `/plugins/…` one.
    r.get('/licenses', d.auth, async (ctx) => {
      respondWithPage(ctx, await d.myLicenses.execute(ctx.query as Record<string, unknown>, actorOf(ctx)));
    });
    r.post('/themes/:id/install', d.auth, async (ctx) => {
      ctx.status = 201;
      ctx.body = await d.installTheme.execute(ctx.params.id, actorOf(ctx));
    });
    for (const route of FORWARDED) {
      const handler = async (ctx: Context) => {
        const res = await d.forward.execute({
          method: route.method,
          template: route.target ?? route.path,
          params: ctx.params as Record<string, string>,
          query: ctx.query as Record<string, unknown>,
          accepts: route.query ?? [],
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : (ctx.request.body ?? {}),
          actor: route.auth ? actorOf(ctx) : undefined,
        });
        ctx.status = res.status;
        ctx.body = res.body ?? (res.status === 204 ? undefined : {});
      };
      const stack: Middleware[] = route.auth ? [d.auth, handler as Middleware] : [handler as Middleware];
      const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      r[verb](route.path, ...(stack as [Middleware]));
    }
    return r;
  });
}

/** `GET /api/admin/marketplace` (admin only): pending submissions and their counts, from the marketplace. */
export function adminMarketplaceRouter(d: { auth: Middleware; overview: MarketplaceAdminOverviewUseCase }): Router {
  const r = new Router({ prefix: '/api/admin' });
  r.get('/marketplace', d.auth, async (ctx) => {
    ctx.body = await d.overview.execute(actorOf(ctx));
  });
  return r;
}
