import { MemoryCache } from '../../../adapters/cache/memory.cache';
import type { LicenseCheck, MarketplaceCatalog } from '../../../core/marketplace/ports/marketplace-catalog.port';
import type { LicenseCheckRecord, MarketplaceInstallation, MarketplaceInstallationRepository } from '../../../core/marketplace/ports/marketplace-installation-repository.port';
import { LICENSE_CACHE_MS, LICENSE_GRACE_MS, PaidLicenses } from '../../../core/marketplace/use-cases/paid-licenses';
import { UnavailableError } from '../../../core/shared/errors';

const HOUR = 3_600_000;

function setup(configured = true) {
  let now = new Date('2026-01-01T00:00:00Z');
  let answer: LicenseCheck | 'down' = { valid: true };
  let asked = 0;
  const catalog = {
    configured,
    validateLicense: async () => {
      asked++;
      if (answer === 'down') throw new UnavailableError('The marketplace is unavailable (connection refused)');
      return answer;
    },
  } as unknown as MarketplaceCatalog;
  let since: Date | null = null;
  const links = {
    markUnreachable: async (_id: string, at: Date) => (since ??= at),
    clearUnreachable: async () => {
      since = null;
    },
  } as unknown as MarketplaceInstallationRepository;
  const stored = new Map<string, LicenseCheckRecord>();
  const checks = { get: async (u: string, i: string) => stored.get(`${u}:${i}`) ?? null, put: async (u: string, i: string, r: LicenseCheckRecord) => void stored.set(`${u}:${i}`, r) };
  const licenses = new PaidLicenses({ catalog, links, checks, cache: new MemoryCache({ ttlMs: 60_000 }), clock: { now: () => now } });
  const link = (isPaid = true): MarketplaceInstallation => ({
    installationId: 'i1', applicationId: 'a1', ownerId: 'u1', marketplacePluginId: 'p1', pluginId: 'l1', version: '1.0.0', isPaid, licenseUnreachableSince: since, state: 'activated',
  });
  return {
    licenses, link,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    set: (a: LicenseCheck | 'down') => (answer = a),
    asked: () => asked,
  };
}

describe('paid licenses', () => {
  it('lets free items and platforms without a marketplace through without asking', async () => {
    const t = setup();
    expect(await t.licenses.standing(t.link(false))).toEqual({ allowed: true, via: 'free' });
    const bare = setup(false);
    expect(await bare.licenses.standing(bare.link())).toEqual({ allowed: true, via: 'not-configured' });
    expect(t.asked() + bare.asked()).toBe(0);
  });

  it('keeps an answer 5 minutes, then asks again', async () => {
    const t = setup();
    expect(await t.licenses.standing(t.link())).toEqual({ allowed: true, via: 'valid' });
    t.set({ valid: false, reason: 'license_revoked' });
    t.advance(LICENSE_CACHE_MS - 1000);
    expect((await t.licenses.standing(t.link())).allowed).toBe(true);
    expect(t.asked()).toBe(1);
    t.advance(2000);
    expect(await t.licenses.standing(t.link())).toEqual({ allowed: false, reason: 'This paid plugin needs a valid license: license_revoked' });
    expect(t.asked()).toBe(2);
  });

  it('runs 72 hours from the first failure while the marketplace is down, never past, and never on a refusal', async () => {
    const t = setup();
    await t.licenses.standing(t.link());
    t.set('down');
    t.advance(LICENSE_CACHE_MS);
    const first = await t.licenses.standing(t.link());
    expect(first).toMatchObject({ allowed: true, via: 'grace' });
    t.advance(LICENSE_GRACE_MS - HOUR);
    expect((await t.licenses.standing(t.link())).allowed).toBe(true);
    t.advance(2 * HOUR);
    expect(await t.licenses.standing(t.link())).toEqual({ allowed: false, reason: expect.stringContaining('72-hour grace period is over') });
    // Back up: the clock of the grace period starts over.
    t.set({ valid: false, reason: 'no_license' });
    expect((await t.licenses.standing(t.link())).allowed).toBe(false);
    t.set('down');
    t.advance(LICENSE_CACHE_MS);
    expect(await t.licenses.standing(t.link())).toEqual({ allowed: false, reason: 'This paid plugin needs a valid license: no_license' });
  });
});
