import type { Context, Next } from 'koa';
import { PayloadTooLargeError } from '../../../core/shared/errors';
import { checkPlainData } from '../shared/untrusted-input';

/** The SAML assertion consumer service addresses, which identity providers POST an HTML form to. */
export const SAML_CALLBACK_PATHS = ['/api/sso/saml/callback', '/sso/saml/callback'];

const FIELDS = ['SAMLResponse', 'RelayState'];

/**
 * Reads the form an identity provider's browser post carries (HTTP-POST binding) on the SAML callback paths
 * only, before the JSON body reader (which leaves a body already read alone): up to `limitBytes`, the two
 * fields of the binding kept, checked like every other body (no NUL, well-formed Unicode).
 */
export function samlFormBody(limitBytes = 1024 * 1024) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== 'POST' || !SAML_CALLBACK_PATHS.includes(ctx.path) || !ctx.is('application/x-www-form-urlencoded')) return next();
    if (Number(ctx.get('Content-Length') || 0) > limitBytes) throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limitBytes) throw new PayloadTooLargeError(`Request body exceeds ${limitBytes} bytes`);
      chunks.push(chunk);
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const body: Record<string, string> = {};
    for (const field of FIELDS) {
      const value = form.get(field);
      if (value !== null) body[field] = value;
    }
    checkPlainData(body);
    (ctx.request as { body?: unknown }).body = body;
    return next();
  };
}
