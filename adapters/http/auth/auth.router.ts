import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ChangePasswordUseCase } from '../../../core/auth/use-cases/change-password.use-case';
import type { ConfirmPasswordResetUseCase } from '../../../core/auth/use-cases/confirm-password-reset.use-case';
import type { LoginUseCase } from '../../../core/auth/use-cases/login.use-case';
import type { RefreshSessionUseCase } from '../../../core/auth/use-cases/refresh-session.use-case';
import type { RegisterUseCase } from '../../../core/auth/use-cases/register.use-case';
import type { RequestPasswordResetUseCase } from '../../../core/auth/use-cases/request-password-reset.use-case';
import type { GetCurrentUserUseCase } from '../../../core/users/use-cases/get-current-user.use-case';
import { actorOf } from '../shared/auth.middleware';

export interface AuthRouterDeps {
  auth: Middleware;
  /** Per-client-address limit on the unauthenticated endpoints (register, login, reset). */
  addressLimit: Middleware;
  register: RegisterUseCase;
  login: LoginUseCase;
  refresh: RefreshSessionUseCase;
  me: GetCurrentUserUseCase;
  changePassword: ChangePasswordUseCase;
  requestReset: RequestPasswordResetUseCase;
  confirmReset: ConfirmPasswordResetUseCase;
  /** Enabled OAuth providers (none until configured). */
  oauthProviders: () => { id: string; name: string; authorizeUrl: string }[];
}

export function authRouter(d: AuthRouterDeps): Router {
  const r = new Router({ prefix: '/api/auth' });
  r.post('/register', d.addressLimit, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.register.execute(ctx.request.body);
  });
  r.post('/login', d.addressLimit, async (ctx) => {
    ctx.body = await d.login.execute(ctx.request.body);
  });
  r.post('/refresh', d.addressLimit, async (ctx) => {
    ctx.body = await d.refresh.execute(ctx.request.body);
  });
  r.get('/me', d.auth, async (ctx) => {
    ctx.body = await d.me.execute(actorOf(ctx));
  });
  r.get('/providers', (ctx) => {
    ctx.body = d.oauthProviders();
  });
  r.post('/change-password', d.auth, async (ctx) => {
    ctx.body = await d.changePassword.execute(ctx.request.body, actorOf(ctx));
  });
  r.post('/password-reset/request', d.addressLimit, async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.requestReset.execute(ctx.request.body);
  });
  r.post('/password-reset/confirm', d.addressLimit, async (ctx) => {
    ctx.body = await d.confirmReset.execute(ctx.request.body);
  });
  return r;
}
