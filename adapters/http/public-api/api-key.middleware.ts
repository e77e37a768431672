import type { Context, Next } from 'koa';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../../core/api-keys/domain/api-key';
import { ApiKeyRateLimitedError } from '../../../core/api-keys/domain/api-key-rate-limited.error';
import type { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import type { PublicCaller } from '../../../core/public-api/domain/public-caller';
import { SANDBOXED_ORIGIN } from '../../../core/public-api/domain/widget-preview';
import { ForbiddenError, UnauthorizedError } from '../../../core/shared/errors';
import { foreignOrigin } from './browser-origin';
import { setRateLimitHeaders } from './rate-limit-headers';

/** The header the embeddable widget sends (`X-Client: widget`) so its conversations are counted as widget traffic. */
export const CLIENT_HEADER = 'X-Client';

/**
 * Requires `X-API-Key`, counts the request against the key's limit (headers on every admitted or
 * limited answer) and puts the caller on `ctx.state.publicCaller`.
 */
export function apiKeyAuth(authenticate: AuthenticateApiKeyUseCase) {
  return async (ctx: Context, next: Next): Promise<void> => {
    let admitted;
    try {
      admitted = await authenticate.execute(ctx.get('X-API-Key'));
    } catch (error) {
      if (error instanceof ApiKeyRateLimitedError) setRateLimitHeaders(ctx, error.decision, RATE_LIMIT_WINDOW_SECONDS);
      throw error;
    }
    setRateLimitHeaders(ctx, admitted.rateLimit, RATE_LIMIT_WINDOW_SECONDS);
    const origin = foreignOrigin(ctx);
    // A widget preview session works only where the console shows it: its sandboxed frame (an opaque
    // origin) or the platform's own pages; a site elsewhere is refused whatever its allowed origins.
    if (admitted.preview && origin !== undefined && origin !== SANDBOXED_ORIGIN) {
      throw new ForbiddenError('A preview session works only in the console’s widget preview');
    }
    const caller: PublicCaller = {
      key: admitted.key,
      origin: admitted.preview ? undefined : origin,
      source: ctx.get(CLIENT_HEADER).toLowerCase() === 'widget' ? 'widget' : 'api',
      ...(admitted.preview ? { preview: admitted.preview } : {}),
    };
    ctx.state.publicCaller = caller;
    await next();
  };
}

export const callerOf = (ctx: Context): PublicCaller => {
  const caller = ctx.state.publicCaller as PublicCaller | undefined;
  if (!caller) throw new UnauthorizedError('An API key is required in the X-API-Key header');
  return caller;
};
