import fc from 'fast-check';
import semver from 'semver';
import { ACTING_USER_HEADERS, signActingUser, verifyActingUser } from '../../../adapters/shared/marketplace-acting-user';
import { ratingStatsOf } from '../../../core/marketplace/domain/item';
import { downloadUrlProblem } from '../../../core/marketplace/domain/links';
import { compareSemVer, isSemVer, newestFirst, withinBounds } from '../../../core/marketplace/domain/semver';
import { headlineVersion } from '../../../core/marketplace/use-cases/versions.use-cases';

describe('SemVer in the marketplace', () => {
  it('accepts SemVer 2.0.0 only', () => {
    for (const v of ['1.0.0', '0.0.1', '10.20.30', '1.0.0-alpha.1', '1.0.0+build.5', '1.0.0-rc.1+exp']) expect([v, isSemVer(v)]).toEqual([v, true]);
    for (const v of ['1.0', '01.0.0', '1.01.0', 'v1.0.0', '1.0.0.0', '', ' 1.0.0', '1.0.0-', '1.0.0-01']) expect([v, isSemVer(v)]).toEqual([v, false]);
  });

  it('orders versions as the semver package does', () => {
    const ident = fc.oneof(fc.nat({ max: 20 }).map(String), fc.constantFrom('alpha', 'beta', 'rc', 'x-1', 'a1'));
    const version = fc
      .tuple(fc.nat({ max: 12 }), fc.nat({ max: 12 }), fc.nat({ max: 12 }), fc.array(ident, { maxLength: 3 }))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre.length ? `-${pre.join('.')}` : ''}`);
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(compareSemVer(a, b)).toBe(semver.compare(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('sorts newest first in SemVer order, not string order, and headlines the newest release', () => {
    const sorted = newestFirst(['1.9.0', '1.10.0', '1.2.0', '2.0.0-beta.1', '1.10.0-rc.1'].map((version) => ({ version }))).map((v) => v.version);
    expect(sorted).toEqual(['2.0.0-beta.1', '1.10.0', '1.10.0-rc.1', '1.9.0', '1.2.0']);
    expect(headlineVersion(['1.9.0', '1.10.0', '2.0.0-beta.1'])).toBe('1.10.0');
    expect(headlineVersion(['0.1.0-alpha', '0.1.0-beta'])).toBe('0.1.0-beta');
  });

  it('checks the platform version against inclusive bounds', () => {
    expect(withinBounds('1.4.0', { minPlatformVersion: '1.0.0', maxPlatformVersion: '1.4.0' })).toBe(true);
    expect(withinBounds('1.4.0', { minPlatformVersion: '1.4.1', maxPlatformVersion: null })).toBe(false);
    expect(withinBounds('1.4.0', { minPlatformVersion: null, maxPlatformVersion: '1.3.9' })).toBe(false);
    expect(withinBounds('1.4.0', { minPlatformVersion: null, maxPlatformVersion: null })).toBe(true);
    // A stored bound that is not SemVer (written before it was checked) makes the version incompatible, never a throw.
    expect(withinBounds('1.4.0', { minPlatformVersion: 'x', maxPlatformVersion: null })).toBe(false);
    expect(withinBounds('1.4.0', { minPlatformVersion: null, maxPlatformVersion: '2.0' })).toBe(false);
  });
});

describe('rating statistics', () => {
  it('averages to two decimals from the per-star counts', () => {
    expect(ratingStatsOf([0, 0, 0, 0, 0])).toEqual({ averageRating: 0, totalReviews: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } });
    expect(ratingStatsOf([1, 0, 0, 1, 1])).toEqual({ averageRating: 3.33, totalReviews: 3, distribution: { 1: 1, 2: 0, 3: 0, 4: 1, 5: 1 } });
  });
});

describe('package download URLs', () => {
  it('takes public https URLs only', () => {
    expect(downloadUrlProblem('https://cdn.example.com/p.zip')).toBeNull();
    expect(downloadUrlProblem('https://8.8.8.8/p.zip')).toBeNull();
    for (const url of [
      'http://cdn.example.com/p.zip',
      'ftp://cdn.example.com/p.zip',
      'https://127.0.0.1/p.zip',
      'https://127.1/p.zip',
      'https://0x7f000001/p.zip',
      'https://10.0.0.1/p.zip',
      'https://172.20.1.1/p.zip',
      'https://192.168.1.1/p.zip',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/p.zip',
      'https://[::1]/p.zip',
      'https://[fd00::1]/p.zip',
      'https://[fe80::1]/p.zip',
      'https://[::ffff:10.0.0.1]/p.zip',
      'https://localhost/p.zip',
      'https://api.localhost/p.zip',
      'https://printer.local/p.zip',
      'https://intranet/p.zip',
      'https://u:p@cdn.example.com/p.zip',
      'not a url',
    ]) {
      expect([url, downloadUrlProblem(url)]).toEqual([url, expect.any(String)]);
    }
  });
});

describe('the signed acting user', () => {
  const token = 'a-marketplace-token-of-some-length';
  const user = { userId: '3f6c1f9e-8a2b-4c1d-9e7f-2b5a6c8d0e1f', role: 'developer' };
  const now = new Date('2026-05-01T12:00:00Z');

  it('round-trips within five minutes either way and names its headers', () => {
    const headers = signActingUser(token, user, now);
    expect(Object.keys(headers).sort()).toEqual(Object.values(ACTING_USER_HEADERS).sort());
    expect(headers[ACTING_USER_HEADERS.timestamp]).toBe(String(now.getTime() / 1000));
    expect(headers[ACTING_USER_HEADERS.signature]).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyActingUser(token, headers, now)).toEqual(user);
    expect(verifyActingUser(token, headers, new Date(now.getTime() + 300_000))).toEqual(user);
    expect(verifyActingUser(token, headers, new Date(now.getTime() - 300_000))).toEqual(user);
    expect(verifyActingUser(token, headers, new Date(now.getTime() + 301_000))).toBeNull();
    expect(verifyActingUser(token, headers, new Date(now.getTime() - 301_000))).toBeNull();
  });

  it('refuses another key, a changed field, a missing or repeated header', () => {
    const headers = signActingUser(token, user, now);
    expect(verifyActingUser('another-token-entirely-here', headers, now)).toBeNull();
    expect(verifyActingUser(token, { ...headers, [ACTING_USER_HEADERS.role]: 'admin' }, now)).toBeNull();
    expect(verifyActingUser(token, { ...headers, [ACTING_USER_HEADERS.userId]: 'someone-else' }, now)).toBeNull();
    expect(verifyActingUser(token, { ...headers, [ACTING_USER_HEADERS.signature]: 'zz' }, now)).toBeNull();
    expect(verifyActingUser(token, { ...headers, [ACTING_USER_HEADERS.userId]: [user.userId, user.userId] }, now)).toBeNull();
    const { [ACTING_USER_HEADERS.signature]: _dropped, ...unsigned } = headers;
    expect(verifyActingUser(token, unsigned, now)).toBeNull();
    // Upper-case hex is the same signature.
    expect(verifyActingUser(token, { ...headers, [ACTING_USER_HEADERS.signature]: headers[ACTING_USER_HEADERS.signature]!.toUpperCase() }, now)).toEqual(user);
  });
});

describe('package download URLs, mapped addresses', () => {
  it('judges an IPv4-mapped IPv6 address by its IPv4 address', () => {
    expect(downloadUrlProblem('https://[::ffff:8.8.8.8]/p.zip')).toBeNull();
    expect(downloadUrlProblem('https://[::ffff:192.168.0.1]/p.zip')).toEqual(expect.any(String));
  });
});
