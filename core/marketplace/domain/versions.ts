import { SEMVER } from '../../plugins/domain/manifest';
import type { CatalogVersion } from '../ports/marketplace-catalog.port';

interface Parsed {
  core: [number, number, number];
  pre: string[];
}

function parse(version: string): Parsed | null {
  if (!SEMVER.test(version)) return null;
  const [main, ...rest] = version.split('+')[0]!.split('-');
  const core = main!.split('.').map(Number) as [number, number, number];
  return { core, pre: rest.length ? rest.join('-').split('.') : [] };
}

export const isSemver = (version: unknown): version is string => typeof version === 'string' && parse(version) !== null;

/** SemVer 2.0.0 precedence: negative when a < b, 0 when equal (build metadata ignored), positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) throw new Error(`not a SemVer version: ${x ? b : a}`);
  for (let i = 0; i < 3; i++) if (x.core[i] !== y.core[i]) return x.core[i]! - y.core[i]!;
  // A pre-release sorts before its release; then identifiers one by one (numbers before words).
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i]!;
    const q = y.pre[i]!;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return x.pre.length - y.pre.length;
}

const isPrerelease = (version: string) => (parse(version)?.pre.length ?? 0) > 0;

/** Why `version` cannot run on `platformVersion` (its compatibility bounds), or null when it can. */
export function incompatibility(version: Pick<CatalogVersion, 'version' | 'compatibility'>, platformVersion: string): string | null {
  const min = version.compatibility?.minPlatformVersion;
  const max = version.compatibility?.maxPlatformVersion;
  if (min && isSemver(min) && compareVersions(platformVersion, min) < 0) return `version ${version.version} needs platform ${min} or later; this platform is ${platformVersion}`;
  if (max && isSemver(max) && compareVersions(platformVersion, max) > 0) return `version ${version.version} supports platform up to ${max}; this platform is ${platformVersion}`;
  if ((min && !isSemver(min)) || (max && !isSemver(max))) return `version ${version.version} has compatibility bounds that are not SemVer`;
  return null;
}

/** The newest release (not pre-release) that runs on this platform, or null. */
export function newestCompatible(versions: CatalogVersion[], platformVersion: string): CatalogVersion | null {
  let best: CatalogVersion | null = null;
  for (const v of versions) {
    if (!isSemver(v.version) || isPrerelease(v.version) || incompatibility(v, platformVersion)) continue;
    if (!best || compareVersions(v.version, best.version) > 0) best = v;
  }
  return best;
}
