import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ExchangeLoginCodeUseCase } from '../../../core/auth/use-cases/exchange-login-code.use-case';
import type { IdentitiesUseCase } from '../../../core/auth/use-cases/identities.use-case';
import type { OAuthLoginUseCase } from '../../../core/auth/use-cases/oauth-login.use-case';
import { actorOf } from '../shared/auth.middleware';
import { answerSession } from './session-cookie';

export interface ExternalLoginUrls {
  /** The platform's public origin for callback URLs: PUBLIC_BASE_URL, else the request's own origin. */
  baseUrl(ctx: Context): string;
  /** Where a finished external login sends the browser with its one-time code (OAUTH_SUCCESS_URL). */
  successUrl(ctx: Context): string;
}

export function externalLoginUrls(config: { publicBaseUrl?: string; oauthSuccessUrl?: string }): ExternalLoginUrls {
  const baseUrl = (ctx: Context) => (config.publicBaseUrl ?? `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
  return { baseUrl, successUrl: (ctx) => config.oauthSuccessUrl ?? `${baseUrl(ctx)}/` };
}

/** Sign-in with GitHub and Google, the one-time code exchange, and the signed-in user's linked identities. */
export function oauthRouter(d: {
  auth: Middleware;
  addressLimit: Middleware;
  oauth: OAuthLoginUseCase;
  exchange: ExchangeLoginCodeUseCase;
  identities: IdentitiesUseCase;
  urls: ExternalLoginUrls;
}): Router {
  const r = new Router();
  for (const provider of ['github', 'google']) {
    r.get(`/api/auth/${provider}`, d.addressLimit, async (ctx) => {
      ctx.redirect(await d.oauth.start(provider, d.urls.baseUrl(ctx)));
    });
    r.get(`/api/auth/${provider}/callback`, d.addressLimit, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(await d.oauth.complete(provider, { ...ctx.query }, d.urls.successUrl(ctx)));
    });
  }
  r.post('/api/auth/oauth/exchange', d.addressLimit, async (ctx) => {
    ctx.body = answerSession(ctx, await d.exchange.execute(ctx.request.body));
  });
  r.get('/api/users/me/identities', d.auth, async (ctx) => {
    ctx.body = await d.identities.list(actorOf(ctx));
  });
  r.delete('/api/users/me/identities/:id', d.auth, async (ctx) => {
    await d.identities.remove(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
