import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ConnectionsUseCases } from '../../../core/connections/use-cases/connections.use-cases';
import { actorOf } from '../shared/auth.middleware';
import { abortOnDisconnect } from '../shared/sse';

/** The caller's connections and their teams' (docs/connections.md); the team policy authorizes each. Responses name the headers and show the key's hint, never a value. */
export function connectionsRouter(d: { auth: Middleware; connections: ConnectionsUseCases }): Router {
  const r = new Router({ prefix: '/api/connections' });
  r.use(d.auth);
  r.get('/', async (ctx) => {
    ctx.body = { data: await d.connections.list(actorOf(ctx), { teamId: ctx.query.teamId }) };
  });
  r.post('/', async (ctx) => {
    ctx.body = await d.connections.create(actorOf(ctx), ctx.request.body, abortOnDisconnect(ctx).signal);
    ctx.status = 201;
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.connections.get(actorOf(ctx), ctx.params.id);
  });
  r.patch('/:id', async (ctx) => {
    ctx.body = await d.connections.update(actorOf(ctx), ctx.params.id, ctx.request.body);
  });
  r.delete('/:id', async (ctx) => {
    await d.connections.remove(actorOf(ctx), ctx.params.id);
    ctx.status = 204;
  });
  r.post('/:id/models', async (ctx) => {
    ctx.body = await d.connections.discover(actorOf(ctx), ctx.params.id, abortOnDisconnect(ctx).signal);
  });
  // A connection that does not answer is a successful test with a negative answer: 200 with `ok: false`.
  r.post('/:id/test', async (ctx) => {
    ctx.body = await d.connections.test(actorOf(ctx), ctx.params.id, abortOnDisconnect(ctx).signal);
  });
  return r;
}
