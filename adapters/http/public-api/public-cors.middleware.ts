import type { Context, Next } from 'koa';
import type { ListedOrigins } from '../../../core/public-api/use-cases/listed-origins';
import { errorBody } from '../shared/error.middleware';
import { CLIENT_HEADER } from './api-key.middleware';
import { foreignOrigin } from './browser-origin';
import { RATE_LIMIT_HEADERS } from './rate-limit-headers';
import { looksLikePreviewToken, SANDBOXED_ORIGIN } from '../../../core/public-api/domain/widget-preview';

const PUBLIC_PATHS = /^\/api\/(v1|public)(\/|$)/;
const EXPOSED = [...RATE_LIMIT_HEADERS, 'Retry-After', 'X-Conversation-Id', 'X-Request-Id'].join(', ');
const ALLOWED_HEADERS = ['X-API-Key', 'Content-Type', CLIENT_HEADER].join(', ');

/**
 * CORS for the public API, before routing. An origin gets CORS headers only when an application lists
 * it; whether *this* application lists it is checked by the use cases (403 otherwise), so a browser
 * can read a successful answer only on an origin its application allows. Other origins get no CORS
 * headers, and their preflights a 403.
 *
 * The opaque origin of a sandboxed frame (`null`) is let through for the console's widget preview: its
 * preflight (which carries no key) is answered, and a request reads its answer only when it carries a
 * preview session (`wpv_…`), which the key middleware then checks; an API key from that origin still
 * needs an application that lists it.
 */
export function publicCors(origins: ListedOrigins) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!PUBLIC_PATHS.test(ctx.path)) return next();
    ctx.vary('Origin');
    const origin = foreignOrigin(ctx);
    const listed = origin !== undefined && (await origins.isListed(origin));
    const sandboxed = origin === SANDBOXED_ORIGIN;
    if (ctx.method === 'OPTIONS' && origin !== undefined && ctx.get('Access-Control-Request-Method')) {
      if (!listed && !sandboxed) {
        ctx.status = 403;
        ctx.body = errorBody(403, 'This origin is not allowed to call the public API');
        return;
      }
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Methods', 'GET, POST');
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    if (listed || (sandboxed && looksLikePreviewToken(ctx.get('X-API-Key')))) {
      ctx.set('Access-Control-Allow-Origin', origin!);
      ctx.set('Access-Control-Expose-Headers', EXPOSED);
    }
    await next();
  };
}
