import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ChangePasswordUseCase } from '../../../core/auth/use-cases/change-password.use-case';
import type { ConfirmPasswordResetUseCase } from '../../../core/auth/use-cases/confirm-password-reset.use-case';
import type { LoginUseCase } from '../../../core/auth/use-cases/login.use-case';
import type { RefreshSessionUseCase } from '../../../core/auth/use-cases/refresh-session.use-case';
import type { RegisterUseCase } from '../../../core/auth/use-cases/register.use-case';
import type { CompleteSetupUseCase } from '../../../core/auth/use-cases/platform-setup.use-cases';
import type { RequestPasswordResetUseCase } from '../../../core/auth/use-cases/request-password-reset.use-case';
import type { SignOutUseCase } from '../../../core/auth/use-cases/sign-out.use-case';
import type { GetCurrentUserUseCase } from '../../../core/users/use-cases/get-current-user.use-case';
import { actorOf } from '../shared/auth.middleware';
import { UnauthorizedError } from '../../../core/shared/errors';
import { answerSession, clearRefreshCookie, refreshTokenOf, setRefreshCookie, wantsCookieSession } from './session-cookie';

export interface AuthRouterDeps {
  auth: Middleware;
  /** Per-client-address limit on the unauthenticated endpoints (register, login, reset). */
  addressLimit: Middleware;
  register: RegisterUseCase;
  /** The setup link's account, the platform's admin (absent where the app has no setup link). */
  setup?: CompleteSetupUseCase;
  login: LoginUseCase;
  refresh: RefreshSessionUseCase;
  signOut: SignOutUseCase;
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
    const session = await d.register.execute(ctx.request.body);
    ctx.status = 201;
    ctx.body = answerSession(ctx, session);
  });
  if (d.setup) {
    const setup = d.setup;
    r.post('/setup', d.addressLimit, async (ctx) => {
      const session = await setup.execute(ctx.request.body);
      ctx.status = 201;
      ctx.body = answerSession(ctx, session);
    });
  }
  r.post('/login', d.addressLimit, async (ctx) => {
    ctx.body = answerSession(ctx, await d.login.execute(ctx.request.body));
  });
  // Bearer clients send `{ refresh_token }`; the console sends its cookie and the session header instead.
  r.post('/refresh', d.addressLimit, async (ctx) => {
    const { token, fromCookie } = refreshTokenOf(ctx);
    ctx.set('Cache-Control', 'no-store');
    // The console asks at every start whether a cookie session exists: without one, that is a 401, not a bad request.
    if (token === undefined && wantsCookieSession(ctx)) throw new UnauthorizedError('No session');
    if (!fromCookie) {
      ctx.body = await d.refresh.execute({ refresh_token: token });
      return;
    }
    try {
      const pair = await d.refresh.execute({ refresh_token: token }, 'cookie');
      setRefreshCookie(ctx, pair.refresh_token);
      ctx.body = { access_token: pair.access_token };
    } catch (error) {
      clearRefreshCookie(ctx);
      throw error;
    }
  });
  r.post('/logout', d.addressLimit, async (ctx) => {
    const { token } = refreshTokenOf(ctx);
    clearRefreshCookie(ctx);
    if (token !== undefined) await d.signOut.execute({ refresh_token: token });
    ctx.status = 204;
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
