import type { Context } from 'koa';
import { ForbiddenError } from '../../../core/shared/errors';

/** The console's refresh-token cookie: HttpOnly, SameSite=Strict, sent only to the auth paths. */
export const REFRESH_COOKIE = 'ap_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';
/**
 * The header a browser client sends to ask for (and to use) the cookie session. A cross-site form cannot
 * set it, and a cross-origin script setting it needs a CORS preflight the auth paths never grant: CSRF proof.
 */
export const SESSION_HEADER = 'X-AP-Session';
export const SESSION_HEADER_VALUE = 'cookie';

/** Whether the request asks for the cookie session (the console does; bearer clients do not). */
export function wantsCookieSession(ctx: Context): boolean {
  return ctx.get(SESSION_HEADER).toLowerCase() === SESSION_HEADER_VALUE;
}

/** Seconds until a JWT's `exp`, read without verifying (only to bound the cookie's life; the token is verified on use). */
function secondsLeft(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? Math.max(0, payload.exp - Math.floor(Date.now() / 1000)) : undefined;
  } catch {
    return undefined;
  }
}

export function setRefreshCookie(ctx: Context, token: string): void {
  const seconds = secondsLeft(token);
  ctx.cookies.set(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: REFRESH_COOKIE_PATH,
    overwrite: true,
    ...(seconds !== undefined ? { maxAge: seconds * 1000 } : {}),
  });
}

export function clearRefreshCookie(ctx: Context): void {
  ctx.cookies.set(REFRESH_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: REFRESH_COOKIE_PATH, overwrite: true, maxAge: 0 });
}

/**
 * The refresh token of a request: the body's (bearer clients) or, for the console, the cookie's, which is
 * only honoured together with the session header. Undefined when neither is present.
 */
export function refreshTokenOf(ctx: Context): { token: unknown; fromCookie: boolean } {
  const body = ctx.request.body as { refresh_token?: unknown } | undefined;
  if (body && typeof body === 'object' && body.refresh_token !== undefined) return { token: body.refresh_token, fromCookie: false };
  const cookie = ctx.cookies.get(REFRESH_COOKIE);
  if (!cookie) return { token: undefined, fromCookie: false };
  if (!wantsCookieSession(ctx)) throw new ForbiddenError(`A cookie session needs the header ${SESSION_HEADER}: ${SESSION_HEADER_VALUE}`);
  return { token: cookie, fromCookie: true };
}

/** Answers a sign-in: for the console, the refresh token goes into the cookie and never into the body. */
export function answerSession<T extends { refresh_token: string }>(ctx: Context, session: T): T | Omit<T, 'refresh_token'> {
  ctx.set('Cache-Control', 'no-store');
  if (!wantsCookieSession(ctx)) return session;
  setRefreshCookie(ctx, session.refresh_token);
  const { refresh_token: _kept, ...rest } = session;
  return rest;
}
