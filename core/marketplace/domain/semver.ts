import { SEMVER } from '../../plugins/domain/manifest';

/** A parsed SemVer 2.0.0 version (build metadata kept for display, ignored in comparisons). */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

/** The version, or null when `text` is not SemVer 2.0.0 (`1.0`, `01.0.0`, `v1.0.0` are not). */
export function parseSemVer(text: string): SemVer | null {
  const m = SEMVER.exec(text);
  if (!m) return null;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (![major, minor, patch].every(Number.isSafeInteger)) return null;
  return { major, minor, patch, prerelease: m[4] ? m[4].split('.') : [] };
}

export const isSemVer = (text: string): boolean => parseSemVer(text) !== null;

const NUMERIC = /^\d+$/;

function compareIdentifiers(a: string, b: string): number {
  const an = NUMERIC.test(a);
  const bn = NUMERIC.test(b);
  if (an && bn) return Math.sign(Number(a) - Number(b)) || Math.sign(a.length - b.length);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SemVer precedence: negative when a < b, 0 when equal, positive when a > b. Both must parse. */
export function compareSemVer(a: string, b: string): number {
  const x = parseSemVer(a);
  const y = parseSemVer(b);
  if (!x || !y) throw new Error(`not SemVer: ${!x ? a : b}`);
  const core = Math.sign(x.major - y.major) || Math.sign(x.minor - y.minor) || Math.sign(x.patch - y.patch);
  if (core) return core;
  if (!x.prerelease.length || !y.prerelease.length) return Math.sign(y.prerelease.length - x.prerelease.length);
  for (let i = 0; i < Math.min(x.prerelease.length, y.prerelease.length); i++) {
    const c = compareIdentifiers(x.prerelease[i]!, y.prerelease[i]!);
    if (c) return c;
  }
  return Math.sign(x.prerelease.length - y.prerelease.length);
}

export const isPrerelease = (version: string): boolean => (parseSemVer(version)?.prerelease.length ?? 0) > 0;

/** Newest first, by SemVer precedence (not string order: 1.10.0 before 1.9.0). */
export const newestFirst = <T extends { version: string }>(items: readonly T[]): T[] => [...items].sort((a, b) => compareSemVer(b.version, a.version));

/** Whether `platform` lies within the (inclusive, optional) bounds; a bound that is not SemVer admits no platform. */
export function withinBounds(platform: string, bounds: { minPlatformVersion: string | null; maxPlatformVersion: string | null }): boolean {
  if ([bounds.minPlatformVersion, bounds.maxPlatformVersion].some((b) => b && !isSemVer(b))) return false;
  if (bounds.minPlatformVersion && compareSemVer(platform, bounds.minPlatformVersion) < 0) return false;
  if (bounds.maxPlatformVersion && compareSemVer(platform, bounds.maxPlatformVersion) > 0) return false;
  return true;
}
