import type { CatalogVersion } from '../ports/marketplace-catalog.port';
import { compareSemVer, isPrerelease, isSemVer } from './semver';

/** The core API's view of catalog versions: SemVer order and bounds from `semver.ts`, shared with the marketplace. */
export const isSemver = (version: unknown): version is string => typeof version === 'string' && isSemVer(version);
export const compareVersions = compareSemVer;

/** Why `version` cannot run on `platformVersion` (its compatibility bounds), or null when it can. */
export function incompatibility(version: Pick<CatalogVersion, 'version' | 'compatibility'>, platformVersion: string): string | null {
  const min = version.compatibility?.minPlatformVersion;
  const max = version.compatibility?.maxPlatformVersion;
  if ((min && !isSemver(min)) || (max && !isSemver(max))) return `version ${version.version} has compatibility bounds that are not SemVer`;
  if (min && compareSemVer(platformVersion, min) < 0) return `version ${version.version} needs platform ${min} or later; this platform is ${platformVersion}`;
  if (max && compareSemVer(platformVersion, max) > 0) return `version ${version.version} supports platform up to ${max}; this platform is ${platformVersion}`;
  return null;
}

/** The newest release (not a pre-release) that runs on this platform, or null. */
export function newestCompatible(versions: CatalogVersion[], platformVersion: string): CatalogVersion | null {
  let best: CatalogVersion | null = null;
  for (const v of versions) {
    if (!isSemver(v.version) || isPrerelease(v.version) || incompatibility(v, platformVersion)) continue;
    if (!best || compareSemVer(v.version, best.version) > 0) best = v;
  }
  return best;
}
