import type { Context, Next } from 'koa';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../../core/api-keys/domain/api-key';
import { ApiKeyRateLimitedError } from '../../../core/api-keys/domain/api-key-rate-limited.error';
import type { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import type { PublicCaller } from '../../../core/public-api/domain/public-caller';
import { UnauthorizedError } from '../../../core/shared/errors';
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
    const caller: PublicCaller = {
      key: admitted.key,
      origin: foreignOrigin(ctx),
      source: ctx.get(CLIENT_HEADER).toLowerCase() === 'widget' ? 'widget' : 'api',
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
