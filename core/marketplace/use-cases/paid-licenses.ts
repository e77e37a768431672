import type { Cache } from '../../shared/cache.port';
import type { Clock } from '../../shared/clock.port';
import { UnavailableError, UpstreamError, UpstreamTimeoutError } from '../../shared/errors';
import type { MarketplaceCatalog } from '../ports/marketplace-catalog.port';
import type { LicenseCheckRecord, LicenseCheckStore, MarketplaceInstallation, MarketplaceInstallationRepository } from '../ports/marketplace-installation-repository.port';

/** SPEC 3/8: a validation answer is trusted this long. */
export const LICENSE_CACHE_MS = 5 * 60 * 1000;
/** SPEC 3/8: how long an unreachable marketplace keeps a paid installation active, from the first failure. */
export const LICENSE_GRACE_MS = 72 * 60 * 60 * 1000;

export type LicenseStanding =
  | { allowed: true; via: 'free' | 'not-configured' | 'valid' | 'grace'; graceEndsAt?: Date }
  | { allowed: false; reason: string };

const cacheKey = (userId: string, itemId: string) => `marketplace-licenses:${userId}:${itemId}`;

/**
 * Whether a marketplace installation may run: free items always; paid ones with a license the marketplace
 * calls valid (answers kept 5 minutes in the store every instance shares, read through the `Cache` region
 * `marketplace-licenses`); while the marketplace cannot be reached, for 72 hours from the first failure.
 * No marketplace configured: validation is skipped (SPEC 1).
 */
export class PaidLicenses {
  constructor(
    private readonly deps: {
      catalog: MarketplaceCatalog;
      links: MarketplaceInstallationRepository;
      checks: LicenseCheckStore;
      cache: Cache;
      clock: Clock;
    },
  ) {}

  async standing(link: MarketplaceInstallation): Promise<LicenseStanding> {
    if (!link.isPaid) return { allowed: true, via: 'free' };
    if (!this.deps.catalog.configured) return { allowed: true, via: 'not-configured' };
    const now = this.deps.clock.now();
    const key = cacheKey(link.ownerId, link.marketplacePluginId);
    const known = await this.deps.cache.getOrLoad<LicenseCheckRecord | null>(key, () => this.deps.checks.get(link.ownerId, link.marketplacePluginId));
    if (known && now.getTime() - new Date(known.checkedAt).getTime() < LICENSE_CACHE_MS && now >= new Date(known.checkedAt)) {
      return known.valid ? { allowed: true, via: 'valid' } : { allowed: false, reason: refusal(known.reason) };
    }
    let answer;
    try {
      answer = await this.deps.catalog.validateLicense(link.marketplacePluginId, link.ownerId);
    } catch (error) {
      if (!(error instanceof UnavailableError || error instanceof UpstreamError || error instanceof UpstreamTimeoutError)) throw error;
      // The grace period keeps a license running; it never turns a refusal the marketplace gave into a license.
      if (known && !known.valid) return { allowed: false, reason: refusal(known.reason) };
      const since = await this.deps.links.markUnreachable(link.installationId, now);
      const graceEndsAt = new Date(since.getTime() + LICENSE_GRACE_MS);
      if (now < graceEndsAt) return { allowed: true, via: 'grace', graceEndsAt };
      return { allowed: false, reason: `The license could not be validated: the marketplace has been unreachable since ${since.toISOString()} and the 72-hour grace period is over` };
    }
    await this.deps.checks.put(link.ownerId, link.marketplacePluginId, { valid: answer.valid, reason: answer.reason ?? null, checkedAt: now });
    await this.deps.cache.invalidate(key);
    if (link.licenseUnreachableSince) await this.deps.links.clearUnreachable(link.installationId);
    return answer.valid ? { allowed: true, via: 'valid' } : { allowed: false, reason: refusal(answer.reason ?? null) };
  }
}

const refusal = (reason: string | null) => `This paid plugin needs a valid license${reason ? `: ${reason}` : ''}`;
