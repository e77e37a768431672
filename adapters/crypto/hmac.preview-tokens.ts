import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { PREVIEW_TOKEN_PREFIX, type PreviewClaims } from '../../core/public-api/domain/widget-preview';
import type { PreviewTokens } from '../../core/public-api/ports/preview-tokens.port';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * `wpv_<claims>.<signature>`: the claims as base64url JSON, signed with HMAC-SHA256 under a key derived
 * (HKDF) from the platform secret for this one use, so no other token of the platform verifies here.
 */
export class HmacPreviewTokens implements PreviewTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'widget-preview', 'preview-session-tokens', 32));
  }

  issue(claims: PreviewClaims): string {
    const body = Buffer.from(JSON.stringify({ a: claims.applicationId, k: claims.keyId, o: claims.ownerId, e: claims.expiresAt })).toString('base64url');
    return `${PREVIEW_TOKEN_PREFIX}${body}.${this.sign(body)}`;
  }

  verify(token: string): PreviewClaims | null {
    if (!token.startsWith(PREVIEW_TOKEN_PREFIX)) return null;
    const [body, signature, ...rest] = token.slice(PREVIEW_TOKEN_PREFIX.length).split('.');
    if (!body || !signature || rest.length) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (typeof c.a !== 'string' || typeof c.k !== 'string' || typeof c.o !== 'string' || typeof c.e !== 'number') return null;
      if (!UUID.test(c.a) || !UUID.test(c.k) || !UUID.test(c.o)) return null;
      return { applicationId: c.a, keyId: c.k, ownerId: c.o, expiresAt: c.e };
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
