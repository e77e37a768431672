import type { Clock } from '../../shared/clock.port';
import { UnauthorizedError } from '../../shared/errors';
import type { KeyHasher } from '../../shared/key-hasher.port';
import type { RateLimitDecision, RateLimiter } from '../../shared/rate-limiter.port';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { looksLikeApiKey, RATE_LIMIT_WINDOW_SECONDS, type ApiKey } from '../domain/api-key';
import { ApiKeyRateLimitedError } from '../domain/api-key-rate-limited.error';
import type { ApiKeyLookup } from './api-key-lookup';
import type { ApiKeyUsageTracker } from './api-key-usage-tracker';

export interface AuthenticatedKey {
  key: ApiKey;
  /** The key's window after counting this request. */
  rateLimit: RateLimitDecision;
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
    },
  ) {}

  async execute(rawKey: unknown): Promise<AuthenticatedKey> {
    if (rawKey === undefined || rawKey === '') throw new UnauthorizedError('An API key is required in the X-API-Key header');
    const key = looksLikeApiKey(rawKey) ? await this.deps.lookup.find(this.deps.hasher.hash(rawKey)) : null;
    if (!key) throw new UnauthorizedError('The API key is not valid');
    if (key.revokedAt) throw new UnauthorizedError('The API key has been revoked');
    if (this.deps.owners) {
      const owner = await this.deps.owners.findById(key.ownerId);
      if (!owner || owner.disabled) throw new UnauthorizedError('The API key is not valid');
    }
    const rateLimit = await this.deps.limiter.consume(`api-key:${key.id}`, { limit: key.rateLimit, windowSeconds: RATE_LIMIT_WINDOW_SECONDS });
    if (!rateLimit.allowed) throw new ApiKeyRateLimitedError(rateLimit);
    this.deps.usage.record(key.id, this.deps.clock.now());
    return { key, rateLimit };
  }
}
