import type { Context, Next } from 'koa';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../../../core/shared/errors';
import { parseJsonBody } from './untrusted-input';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads JSON bodies into `ctx.request.body`, the one place every body passes. Stops reading at
 * `limitBytes` (413), refuses other content types on requests that carry a body (415), and answers
 * 400 to malformed JSON, a top level that is not an object, prototype-named keys, deep nesting,
 * NUL and ill-formed strings (`parseJsonBody`). Multipart routes are left alone for their own parser.
 */
export function jsonBodyMiddleware(limitBytes = 1024 * 1024) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!METHODS_WITH_BODY.has(ctx.method) || ctx.is('multipart/form-data')) return next();
    // A body read before by a route's own reader (the SAML form post) is left as it is.
    if ((ctx.request as { body?: unknown }).body !== undefined) return next();
    const length = Number(ctx.get('Content-Length') || 0);
    const chunked = ctx.get('Transfer-Encoding') !== '';
    if (length === 0 && !chunked) {
      (ctx.request as { body?: unknown }).body = {};
      return next();
    }
    if (!ctx.is('application/json', 'application/*+json')) {
      throw new UnsupportedMediaTypeError('Request bodies must be JSON (Content-Type: application/json)');
    }
    if (length > limitBytes) throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes`);
    const raw = await readLimited(ctx, limitBytes);
    // Kept for signature checks over the exact bytes received (payment webhooks).
    (ctx.request as { rawBody?: Buffer }).rawBody = raw;
    (ctx.request as { body?: unknown }).body = raw.length === 0 ? {} : parseJsonBody(raw.toString('utf8'));
    return next();
  };
}

function readLimited(ctx: Context, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const req = ctx.req;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.resume();
        reject(new PayloadTooLargeError(`Request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** The exact bytes of a JSON request body, as read (empty when there was none). */
export const rawBodyOf = (ctx: Context): Buffer => (ctx.request as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
