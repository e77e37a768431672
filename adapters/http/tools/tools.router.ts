import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { GetAgentSettingsUseCase, UpdateAgentSettingsUseCase } from '../../../core/tools/use-cases/agent-settings.use-cases';
import type { CreateToolUseCase, DeleteToolUseCase, GetToolUseCase, ListToolsUseCase, UpdateToolUseCase } from '../../../core/tools/use-cases/manage-tools.use-cases';
import { actorOf } from '../shared/auth.middleware';

/** An application's tools and agent settings (docs/tools.md). */
export function toolsRouter(d: {
  auth: Middleware;
  create: CreateToolUseCase;
  list: ListToolsUseCase;
  get: GetToolUseCase;
  update: UpdateToolUseCase;
  remove: DeleteToolUseCase;
  getAgent: GetAgentSettingsUseCase;
  updateAgent: UpdateAgentSettingsUseCase;
}): Router {
  const r = new Router({ prefix: '/api/applications/:appId' });
  r.use(d.auth);
  r.get('/tools', async (ctx) => {
    ctx.body = await d.list.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.post('/tools', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.get('/tools/:toolId', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.appId!, ctx.params.toolId!, actorOf(ctx));
  });
  r.put('/tools/:toolId', async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.appId!, ctx.params.toolId!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/tools/:toolId', async (ctx) => {
    await d.remove.execute(ctx.params.appId!, ctx.params.toolId!, actorOf(ctx));
    ctx.status = 204;
  });
  r.get('/agent', async (ctx) => {
    ctx.body = await d.getAgent.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.put('/agent', async (ctx) => {
    ctx.body = await d.updateAgent.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  return r;
}
