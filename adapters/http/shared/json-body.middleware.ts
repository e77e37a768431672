import type { Context, Next } from 'koa';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../../../core/shared/errors';
import { errorBody } from './error.middleware';
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
    // Mounted in another server (Express, Koa, Fastify) whose body parser ran first: the stream is spent.
    const host = hostParsedBody(ctx);
    if (host !== undefined) {
      if (!ctx.is('application/json', 'application/*+json')) {
        throw new UnsupportedMediaTypeError('Request bodies must be JSON (Content-Type: application/json)');
      }
      if (host.length > limitBytes) throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes`);
      (ctx.request as { rawBody?: Buffer }).rawBody = host;
      (ctx.request as { body?: unknown }).body = host.length === 0 ? {} : parseJsonBody(host.toString('utf8'));
      return next();
    }
    if (ctx.req.readableDidRead || ctx.req.readableEnded) {
      // Waiting for a body another reader consumed would hang the request forever: refuse it now, saying why.
      ctx.status = 500;
      ctx.body = errorBody(500, BODY_ALREADY_READ);
      return;
    }
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

/** The 500 of a request whose body a parser of the host server read without leaving it on `req.body`. */
export const BODY_ALREADY_READ =
  'The request body was read by another body parser before the platform, which left no parsed body on req.body: ' +
  'mount the platform before the body parser, or have the parser set req.body (or req.rawBody)';

/**
 * The body a host server's parser left on the Node request, as bytes: `req.rawBody` (a Buffer or string kept
 * by the parser), else `req.body` as a Buffer, a string, or a parsed value (serialized again, then checked
 * as any body is). Undefined when the host left nothing.
 */
function hostParsedBody(ctx: Context): Buffer | undefined {
  const req = ctx.req as { body?: unknown; rawBody?: unknown };
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (typeof req.rawBody === 'string') return Buffer.from(req.rawBody, 'utf8');
  const body = req.body;
  if (body === undefined) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body === null || typeof body !== 'object') return Buffer.from(JSON.stringify(body), 'utf8');
  // A parser that found no body (a GET-like request) leaves {}: nothing to read.
  if (!Array.isArray(body) && Object.keys(body).length === 0 && !ctx.req.readableDidRead) return undefined;
  return Buffer.from(JSON.stringify(body), 'utf8');
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
