import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActivatePluginUseCase } from '../../../core/plugins/use-cases/activate-plugin.use-case';
import type { DeactivatePluginUseCase } from '../../../core/plugins/use-cases/deactivate-plugin.use-case';
import type { InstallPluginUseCase } from '../../../core/plugins/use-cases/install-plugin.use-case';
import type { ListAdminPagesUseCase } from '../../../core/plugins/use-cases/list-admin-pages.use-case';
import type { GetInstallationUseCase, ListInstallationsUseCase } from '../../../core/plugins/use-cases/list-installations.use-case';
import type { UpdatePluginSettingsUseCase } from '../../../core/plugins/use-cases/update-plugin-settings.use-case';
import type { UninstallPluginUseCase } from '../../../core/plugins/use-cases/uninstall-plugin.use-case';
import { actorOf } from '../shared/auth.middleware';
import type { Actor } from '../../../core/shared/actor';
import type { InstallationView } from '../../../core/plugins/domain/installation';

/** Installs from the marketplace (the marketplace area's use case), when the body names `marketplacePluginId`. */
export interface MarketplaceInstaller {
  execute(appId: unknown, input: unknown, actor: Actor): Promise<InstallationView>;
}

/** Plugins installed in an application (SPEC 3, 4.8): install, activate, deactivate, uninstall, list. */
export function pluginInstallationsRouter(d: {
  auth: Middleware;
  install: InstallPluginUseCase;
  installFromMarketplace?: MarketplaceInstaller;
  list: ListInstallationsUseCase;
  get: GetInstallationUseCase;
  activate: ActivatePluginUseCase;
  deactivate: DeactivatePluginUseCase;
  uninstall: UninstallPluginUseCase;
  adminPages: ListAdminPagesUseCase;
  updateSettings: UpdatePluginSettingsUseCase;
}): Router {
  const r = new Router({ prefix: '/api/applications/:appId/plugins' });
  r.use(d.auth);
  r.post('/', async (ctx) => {
    ctx.status = 201;
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const fromMarketplace = d.installFromMarketplace && body !== null && typeof body === 'object' && Object.hasOwn(body, 'marketplacePluginId');
    ctx.body = fromMarketplace ? await d.installFromMarketplace!.execute(ctx.params.appId, body, actorOf(ctx)) : await d.install.execute(ctx.params.appId, body, actorOf(ctx));
  });
  r.get('/', async (ctx) => {
    ctx.body = await d.list.execute(ctx.params.appId, actorOf(ctx));
  });
  r.get('/admin-pages', async (ctx) => {
    ctx.body = await d.adminPages.execute(ctx.params.appId, actorOf(ctx));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.appId, ctx.params.id, actorOf(ctx));
  });
  r.put('/:id/settings', async (ctx) => {
    ctx.body = await d.updateSettings.execute(ctx.params.appId, ctx.params.id, ctx.request.body, actorOf(ctx));
  });
  r.put('/:id/activate', async (ctx) => {
    ctx.body = await d.activate.execute(ctx.params.appId, ctx.params.id, actorOf(ctx));
  });
  r.put('/:id/deactivate', async (ctx) => {
    ctx.body = await d.deactivate.execute(ctx.params.appId, ctx.params.id, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.uninstall.execute(ctx.params.appId, ctx.params.id, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
