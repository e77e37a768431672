import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../apps/shared/config';

const fresh = () => mkdtempSync(join(tmpdir(), 'sign-in-config-'));

describe('configuration of GitHub, Google and SSO sign-in', () => {
  it('offers no provider by default, on the providers’ own addresses, https issuers only', () => {
    const config = loadConfig({ DATA_DIR: fresh() });
    expect(config.oauth).toEqual({
      github: undefined,
      google: undefined,
      githubBaseUrl: 'https://github.com',
      githubApiUrl: 'https://api.github.com',
      googleIssuer: 'https://accounts.google.com',
      successUrl: undefined,
    });
    expect(config.sso).toEqual({ allowHttp: false, allowedPrivateCidrs: [] });
  });

  it('offers a provider when both its client id and secret are set, and refuses one without the other', () => {
    const config = loadConfig({ DATA_DIR: fresh(), GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret', OAUTH_SUCCESS_URL: 'https://app.example.com/done/' });
    expect(config.oauth.github).toEqual({ clientId: 'id', clientSecret: 'secret' });
    expect(config.oauth.successUrl).toBe('https://app.example.com/done');
    expect(() => loadConfig({ DATA_DIR: fresh(), GOOGLE_CLIENT_ID: 'id' })).toThrow(new ConfigError('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together'));
    expect(() => loadConfig({ DATA_DIR: fresh(), GOOGLE_ISSUER_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: fresh(), SSO_ALLOWED_PRIVATE_CIDRS: '10.0.0.0' })).toThrow(ConfigError);
    expect(loadConfig({ DATA_DIR: fresh(), SSO_ALLOW_HTTP: 'on', SSO_ALLOWED_PRIVATE_CIDRS: '10.1.0.0/16' }).sso).toEqual({ allowHttp: true, allowedPrivateCidrs: ['10.1.0.0/16'] });
  });
});
