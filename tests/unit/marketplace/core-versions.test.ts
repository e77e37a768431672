import { incompatibility, newestCompatible } from '../../../core/marketplace/domain/versions';
import type { CatalogVersion } from '../../../core/marketplace/ports/marketplace-catalog.port';

const v = (version: string, min: string | null = null, max: string | null = null): CatalogVersion => ({
  pluginId: 'p',
  version,
  changelog: '',
  compatibility: { minPlatformVersion: min, maxPlatformVersion: max },
  downloadUrl: 'https://marketplace.example/p.zip',
  fileSize: 1,
  checksum: 'sha256:00',
});

describe('marketplace versions on the core side', () => {
  it('picks the newest compatible release in SemVer order, never a pre-release', () => {
    const versions = [v('1.9.0'), v('1.10.0'), v('2.0.0-beta.1'), v('1.11.0', '5.0.0')];
    expect(newestCompatible(versions, '1.0.0')?.version).toBe('1.10.0');
    expect(newestCompatible(versions, '5.0.0')?.version).toBe('1.11.0');
    expect(newestCompatible([v('1.0.0', null, '0.5.0')], '1.0.0')).toBeNull();
    expect(newestCompatible([v('1.0'), v('01.0.0')], '1.0.0')).toBeNull();
  });

  it('says why a version does not run here', () => {
    expect(incompatibility(v('1.0.0', '2.0.0'), '1.4.0')).toMatch(/needs platform 2\.0\.0 or later; this platform is 1\.4\.0/);
    expect(incompatibility(v('1.0.0', null, '1.2.0'), '1.4.0')).toMatch(/supports platform up to 1\.2\.0/);
    expect(incompatibility(v('1.0.0', '1.0'), '1.4.0')).toMatch(/not SemVer/);
    expect(incompatibility(v('1.0.0', '1.4.0', '1.4.0'), '1.4.0')).toBeNull();
  });
});
