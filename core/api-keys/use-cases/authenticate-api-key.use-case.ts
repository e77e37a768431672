import type { Clock } from '../../shared/clock.port';
import { UnauthorizedError } from '../../shared/errors';
import type { KeyHasher } from '../../shared/key-hasher.port';
import type { RateLimitDecision, RateLimiter } from '../../shared/rate-limiter.port';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { looksLikePreviewToken } from '../../public-api/domain/widget-preview';
import type { PreviewTokens } from '../../public-api/ports/preview-tokens.port';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';
import { looksLikeApiKey, RATE_LIMIT_WINDOW_SECONDS, type ApiKey } from '../domain/api-key';
import { ApiKeyRateLimitedError } from '../domain/api-key-rate-limited.error';
import type { ApiKeyLookup } from './api-key-lookup';
import type { ApiKeyUsageTracker } from './api-key-usage-tracker';

export interface AuthenticatedKey {
  key: ApiKey;
  /** The key's window after counting this request. */
  rateLimit: RateLimitDecision;
  /** Set when a widget preview session (`wpv_…`) was sent in place of the key: the one application it is bound to. */
  preview?: { applicationId: string };
}

/**
 * Admits one public-API request by its `X-API-Key`: 401 for a missing, unknown or revoked key or a
 * key whose owner is disabled or gone, then one request counted against the key's per-minute limit (ApiKeyRateLimitedError past it).
 */
export class AuthenticateApiKeyUseCase {
  constructor(
    private readonly deps: {
      lookup: ApiKeyLookup;
      hasher: KeyHasher;
      limiter: RateLimiter;
      usage: ApiKeyUsageTracker;
      clock: Clock;
      /** The keys' owners (a cached read): a disabled or deleted owner's keys stop working at once. */
      owners?: Pick<UserRepository, 'findById'>;
      /** Widget preview sessions (IssueWidgetPreviewUseCase): their signer and the keys they are bound to. Absent: refused as keys. */
      previews?: { tokens: PreviewTokens; keys: Pick<ApiKeyRepository, 'findById'> };
    },
  ) {}

  async execute(rawKey: unknown): Promise<AuthenticatedKey> {
    if (rawKey === undefined || rawKey === '') throw new UnauthorizedError('An API key is required in the X-API-Key header');
    let key: ApiKey | null;
    let preview: AuthenticatedKey['preview'];
    if (looksLikePreviewToken(rawKey) && this.deps.previews) {
      const claims = this.deps.previews.tokens.verify(rawKey);
      if (!claims) throw new UnauthorizedError('The preview session is not valid');
      if (claims.expiresAt * 1000 <= this.deps.clock.now().getTime()) throw new UnauthorizedError('The preview session has expired: reload the preview');
      key = await this.deps.previews.keys.findById(claims.keyId);
      // The key must still be the application owner's and cover the application.
      if (!key || key.ownerId !== claims.ownerId || (key.applicationId !== null && key.applicationId !== claims.applicationId)) key = null;
      preview = { applicationId: claims.applicationId };
    } else {
      key = looksLikeApiKey(rawKey) ? await this.deps.lookup.find(this.deps.hasher.hash(rawKey)) : null;
    }
    if (!key) throw new UnauthorizedError('The API key is not valid');
    if (key.revokedAt) throw new UnauthorizedError('The API key has been revoked');
    if (this.deps.owners) {
      const owner = await this.deps.owners.findById(key.ownerId);
      if (!owner || owner.disabled) throw new UnauthorizedError('The API key is not valid');
    }
    const rateLimit = await this.deps.limiter.consume(`api-key:${key.id}`, { limit: key.rateLimit, windowSeconds: RATE_LIMIT_WINDOW_SECONDS });
    if (!rateLimit.allowed) throw new ApiKeyRateLimitedError(rateLimit);
    this.deps.usage.record(key.id, this.deps.clock.now());
    return { key, rateLimit, ...(preview ? { preview } : {}) };
  }
}
