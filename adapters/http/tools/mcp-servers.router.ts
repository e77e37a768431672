import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ListAvailableToolsUseCase } from '../../../core/tools/use-cases/application-toolset';
import type {
  CreateMcpServerUseCase,
  DeleteMcpServerUseCase,
  GetMcpServerUseCase,
  ListMcpServersUseCase,
  RefreshMcpServerUseCase,
  UpdateMcpServerUseCase,
} from '../../../core/tools/use-cases/mcp-servers.use-cases';
import { actorOf } from '../shared/auth.middleware';

/** An application's remote MCP servers, and the catalogue of every tool its agent settings may enable (docs/tools.md). */
export function mcpServersRouter(d: {
  auth: Middleware;
  available: ListAvailableToolsUseCase;
  create: CreateMcpServerUseCase;
  list: ListMcpServersUseCase;
  get: GetMcpServerUseCase;
  update: UpdateMcpServerUseCase;
  remove: DeleteMcpServerUseCase;
  refresh: RefreshMcpServerUseCase;
}): Router {
  const r = new Router({ prefix: '/api/applications/:appId' });
  r.use(d.auth);
  r.get('/tools/available', async (ctx) => {
    ctx.body = await d.available.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.get('/mcp-servers', async (ctx) => {
    ctx.body = await d.list.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.post('/mcp-servers', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.get('/mcp-servers/:serverId', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.appId!, ctx.params.serverId!, actorOf(ctx));
  });
  r.put('/mcp-servers/:serverId', async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.appId!, ctx.params.serverId!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/mcp-servers/:serverId', async (ctx) => {
    await d.remove.execute(ctx.params.appId!, ctx.params.serverId!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/mcp-servers/:serverId/refresh', async (ctx) => {
    ctx.body = await d.refresh.execute(ctx.params.appId!, ctx.params.serverId!, actorOf(ctx));
  });
  return r;
}
