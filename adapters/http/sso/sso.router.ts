import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ManageSsoConfigUseCase } from '../../../core/sso/use-cases/manage-sso-config.use-case';
import type { SsoLoginUseCase } from '../../../core/sso/use-cases/sso-login.use-case';
import type { ExternalLoginUrls } from '../auth/oauth.router';
import { actorOf } from '../shared/auth.middleware';
import { SAML_CALLBACK_PATHS } from './saml-form.middleware';

/** Teams' SSO connections (Owner and Admins) and the SSO sign-in: start, OIDC callback, SAML callback. */
export function ssoRouter(d: { auth: Middleware; addressLimit: Middleware; manage: ManageSsoConfigUseCase; login: SsoLoginUseCase; urls: ExternalLoginUrls }): Router {
  const r = new Router();
  r.get('/api/sso/oidc/callback', d.addressLimit, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(await d.login.completeOidc({ ...ctx.query }, d.urls.successUrl(ctx)));
  });
  for (const path of SAML_CALLBACK_PATHS) {
    r.post(path, d.addressLimit, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(await d.login.completeSaml(ctx.request.body, `${d.urls.baseUrl(ctx)}${path}`, d.urls.successUrl(ctx)));
    });
  }
  r.get('/api/sso/saml/metadata', (ctx) => {
    ctx.type = 'application/samlmetadata+xml';
    ctx.body = d.login.samlMetadata(d.urls.baseUrl(ctx));
  });
  r.get('/api/sso/:teamSlug/login', d.addressLimit, async (ctx) => {
    ctx.redirect(await d.login.start(ctx.params.teamSlug!, d.urls.baseUrl(ctx)));
  });
  r.get('/api/sso/:teamSlug/config', d.auth, async (ctx) => {
    ctx.body = await d.manage.get(ctx.params.teamSlug!, actorOf(ctx), d.urls.baseUrl(ctx));
  });
  r.put('/api/sso/:teamSlug/config', d.auth, async (ctx) => {
    ctx.body = await d.manage.put(ctx.params.teamSlug!, ctx.request.body, actorOf(ctx), d.urls.baseUrl(ctx));
  });
  r.delete('/api/sso/:teamSlug/config', d.auth, async (ctx) => {
    await d.manage.remove(ctx.params.teamSlug!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
