import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import type { CallPluginEndpointUseCase, EndpointCaller } from '../../../core/plugins/use-cases/call-plugin-endpoint.use-case';
import type { CreatePluginUseCase } from '../../../core/plugins/use-cases/create-plugin.use-case';
import type { GetPluginUseCase } from '../../../core/plugins/use-cases/get-plugin.use-case';
import type { ListPluginsUseCase } from '../../../core/plugins/use-cases/list-plugins.use-case';
import type { PublishPluginUseCase } from '../../../core/plugins/use-cases/publish-plugin.use-case';
import type { Actor } from '../../../core/shared/actor';
import { ValidationError } from '../../../core/shared/errors';
import { actorOf } from '../shared/auth.middleware';
import { formOf, multipartForm } from '../uploads/multipart';

const MAX_PACKAGE_BYTES = 1024 * 1024;

/** Plugins (SPEC 4.8, EXTENSIONS.md): packages, publishing, and the endpoints plugins register. */
export function pluginsRouter(d: {
  auth: Middleware;
  create: CreatePluginUseCase;
  list: ListPluginsUseCase;
  get: GetPluginUseCase;
  publish: PublishPluginUseCase;
  endpoint: CallPluginEndpointUseCase;
  apiKeys: AuthenticateApiKeyUseCase;
}): Router {
  const r = new Router({ prefix: '/api/plugins' });
  const zip = multipartForm({ maxFileBytes: MAX_PACKAGE_BYTES, fileField: 'package' });
  r.post('/', d.auth, async (ctx, next) => (ctx.is('multipart/form-data') ? zip(ctx, next) : next()), async (ctx) => {
    let input;
    if (ctx.is('multipart/form-data')) {
      const file = formOf(ctx).file;
      if (!file) throw ValidationError.field('package', 'Send the ZIP package in a "package" field');
      input = { zip: file.bytes };
    } else {
      input = { json: ctx.request.body };
    }
    ctx.status = 201;
    ctx.body = await d.create.execute(input, actorOf(ctx));
  });
  r.get('/', d.auth, async (ctx) => {
    ctx.body = await d.list.execute(ctx.query, actorOf(ctx));
  });
  r.get('/:id', d.auth, async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.put('/:id/publish', d.auth, async (ctx) => {
    ctx.body = await d.publish.execute(ctx.params.id!, actorOf(ctx));
  });

  const endpoint = async (ctx: Context) => {
    const applicationId = ctx.get('X-Application-Id') || (typeof ctx.query.applicationId === 'string' ? ctx.query.applicationId : undefined);
    const request = {
      pluginId: ctx.params.pluginId!,
      applicationId,
      method: ctx.method,
      path: `/${ctx.params.rest ?? ''}`,
      query: Object.fromEntries(Object.entries(ctx.query).filter(([k]) => k !== 'applicationId')),
      headers: Object.fromEntries(Object.entries(ctx.headers).filter((e): e is [string, string] => typeof e[1] === 'string')),
      body: ctx.request.body,
    };
    const resolved = await d.endpoint.resolve(request);
    const caller = resolved.auth ? await callerOf(ctx, d) : null;
    const response = await d.endpoint.execute(resolved, request, caller);
    ctx.set(response.headers);
    ctx.status = response.status;
    ctx.body = response.body;
  };
  // The methods a plugin endpoint may declare.
  const path = '/:pluginId/endpoints/{*rest}';
  r.get(path, endpoint).post(path, endpoint).put(path, endpoint).patch(path, endpoint).delete(path, endpoint);
  return r;
}

/** `auth: true`: the caller of a bearer token or an X-API-Key (the use case decides whether it may call). */
async function callerOf(ctx: Context, d: { auth: Middleware; apiKeys: AuthenticateApiKeyUseCase }): Promise<EndpointCaller | null> {
  if (ctx.get('Authorization')) {
    await d.auth(ctx, async () => undefined);
    return { userId: (ctx.state.actor as Actor).userId };
  }
  if (ctx.get('X-API-Key')) {
    const { key } = await d.apiKeys.execute(ctx.get('X-API-Key'));
    return { userId: key.ownerId, keyApplicationId: key.applicationId };
  }
  return null;
}
