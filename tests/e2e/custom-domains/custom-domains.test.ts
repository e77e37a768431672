import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { NodeTlsProbe } from '../../../adapters/dns/node.tls-probe';
import { DOMAIN_TOKENS } from '../../../apps/core-api/modules/custom-domains.tokens';
import { TOKENS, resolve } from '../../../apps/shared/tokens';
import { RefreshSslExpiryUseCase } from '../../../core/domains/use-cases/refresh-ssl-expiry.use-case';
import { LocalDns } from '../../support/local-dns';
import { DATABASE_KINDS } from '../../support/test-database';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';

const TARGET = 'edge.platform.example';

/** A request with a chosen Host (fetch may not set it), through node:http. */
function hostRequest(stack: TestStack, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const url = new URL(stack.listening.url);
  return new Promise((done, fail) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe.each(DATABASE_KINDS)('core API: custom domains (%s)', (database) => {
  let stack: TestStack;
  let dns: LocalDns;
  beforeAll(async () => {
    dns = await LocalDns.start();
    stack = await startCoreApi({
      database,
      env: { DNS_SERVERS: dns.address, CUSTOM_DOMAIN_TARGET: TARGET, RESERVED_DOMAINS: 'reserved.example,internal.test', PUBLIC_BASE_URL: 'https://platform.example', TRUST_PROXY: 'on' },
    });
  });
  afterAll(async () => {
    await stack.close();
    await dns.close();
  });

  async function claim(owner: { token: string; app: { id: string } }, domain: string) {
    const res = await stack.client.post('/api/custom-domains', { domain, applicationId: owner.app.id }, { token: owner.token });
    expect(res.status).toBe(201);
    return res.body as { id: string; domain: string; status: string; dnsRecords: Array<{ type: string; name: string; value: string }> };
  }

  it('goes from pending to verified (TXT) to active, and then serves the application on that Host', async () => {
    const owner = await userWithApplication(stack.client, { name: 'Harbour Help' });
    const created = await claim(owner, 'Chat.Harbour.Example.');
    expect(created).toMatchObject({ domain: 'chat.harbour.example', status: 'pending' });
    const txt = created.dnsRecords.find((r) => r.type === 'TXT')!;
    expect(txt.name).toBe('_ap-verify.chat.harbour.example');
    expect(created.dnsRecords).toContainEqual({ type: 'CNAME', name: 'chat.harbour.example', value: TARGET });

    // Not reachable yet, and activation needs verification first.
    expect((await stack.client.get('/api/custom-domains/tls-allowed?domain=chat.harbour.example')).status).toBe(404);
    expect((await stack.client.post(`/api/custom-domains/${created.id}/activate`, {}, { token: owner.token })).status).toBe(409);

    const failed = await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token });
    expect(failed.body).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('NXDOMAIN') });

    dns.zone['_ap-verify.chat.harbour.example'] = { txt: [txt.value] };
    const verified = await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token });
    expect(verified.body).toMatchObject({ status: 'verified', failureReason: null });
    const active = await stack.client.post(`/api/custom-domains/${created.id}/activate`, {}, { token: owner.token });
    expect(active.status).toBe(200);
    expect(active.body.status).toBe('active');

    const page = await hostRequest(stack, '/', { Host: 'chat.harbour.example' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.text).toContain('<title>Harbour Help</title>');
    expect((await hostRequest(stack, '/api/auth/me', { Host: 'chat.harbour.example' })).status).toBe(404);
    expect((await hostRequest(stack, '/public/widget.js', { Host: 'chat.harbour.example' })).status).toBe(200);
    expect((await hostRequest(stack, `/api/applications/${owner.app.id}/theme.css`, { Host: 'chat.harbour.example' })).status).toBe(200);
    const tls = await stack.client.get('/api/custom-domains/tls-allowed?domain=chat.harbour.example');
    expect(tls.status).toBe(200);
    // The platform's own host is not routed.
    expect((await hostRequest(stack, '/api/health', { Host: 'platform.example' })).status).toBe(200);
  });

  it('verifies by CNAME too, and says what it found when neither record is right', async () => {
    const owner = await userWithApplication(stack.client);
    const created = await claim(owner, 'help.cname.example');
    dns.zone['help.cname.example'] = { cname: 'somewhere.else.example' };
    const wrong = await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token });
    expect(wrong.body.status).toBe('failed');
    expect(wrong.body.failureReason).toContain(`points to somewhere.else.example, not ${TARGET}`);
    dns.zone['_ap-verify.help.cname.example'] = { txt: ['ap-verify-not-the-token'] };
    const wrongToken = await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token });
    expect(wrongToken.body.failureReason).toContain('does not hold the verification token');
    dns.zone['help.cname.example'] = { cname: `${TARGET}.` };
    expect((await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token })).body.status).toBe('verified');
  });

  it('applies redirectWww, forceHttps (X-Forwarded-Proto behind TRUST_PROXY) and the custom headers', async () => {
    const owner = await userWithApplication(stack.client);
    const created = await claim(owner, 'shop.settings.example');
    dns.zone['shop.settings.example'] = { cname: TARGET };
    await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token });
    await stack.client.post(`/api/custom-domains/${created.id}/activate`, {}, { token: owner.token });
    const refused = await stack.client.put(`/api/custom-domains/${created.id}`, { customHeaders: { 'Set-Cookie': 'a=b', 'Content-Security-Policy': 'none', 'X-Ok': 'yes' } }, { token: owner.token });
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['customHeaders.Content-Security-Policy', 'customHeaders.Set-Cookie']);
    const set = await stack.client.put(`/api/custom-domains/${created.id}`, { redirectWww: true, forceHttps: true, customHeaders: { 'X-Shop': 'harbour' } }, { token: owner.token });
    expect(set.body.settings).toEqual({ redirectWww: true, forceHttps: true, customHeaders: { 'X-Shop': 'harbour' } });

    const www = await hostRequest(stack, '/?from=ad', { Host: 'www.shop.settings.example' });
    expect(www.status).toBe(301);
    expect(www.headers.location).toBe('https://shop.settings.example/?from=ad');
    const plain = await hostRequest(stack, '/', { Host: 'shop.settings.example', 'X-Forwarded-Proto': 'http' });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://shop.settings.example/');
    expect(plain.headers['x-shop']).toBe('harbour');
    const secure = await hostRequest(stack, '/', { Host: 'shop.settings.example', 'X-Forwarded-Proto': 'https' });
    expect(secure.status).toBe(200);
    expect(secure.headers['x-shop']).toBe('harbour');
    // Behind the proxy the forwarded host routes the same way.
    expect((await hostRequest(stack, '/', { Host: 'platform.example', 'X-Forwarded-Host': 'shop.settings.example', 'X-Forwarded-Proto': 'https' })).status).toBe(200);
    expect((await stack.client.get('/api/custom-domains/tls-allowed?domain=www.shop.settings.example')).status).toBe(200);
  });

  it('refuses reserved names and malformed ones (400), and a domain another application holds (409)', async () => {
    const owner = await userWithApplication(stack.client);
    for (const domain of ['platform.example', 'api.platform.example', 'localhost', '127.0.0.1', 'reserved.example', 'x.internal.test', 'not a domain', 'https://a.example/', 'single']) {
      const res = await stack.client.post('/api/custom-domains', { domain, applicationId: owner.app.id }, { token: owner.token });
      expect([domain, res.status]).toEqual([domain, 400]);
      expect(res.body.details[0].path).toBe('domain');
    }
    await claim(owner, 'taken.example');
    const other = await userWithApplication(stack.client);
    const dup = await stack.client.post('/api/custom-domains', { domain: 'TAKEN.example', applicationId: other.app.id }, { token: other.token });
    expect(dup.status).toBe(409);
  });

  it("lists the caller's domains and answers 404 for another user's domain or application", async () => {
    const owner = await userWithApplication(stack.client);
    const created = await claim(owner, 'mine.list.example');
    const list = await stack.client.get('/api/custom-domains', { token: owner.token });
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([created.id]);
    expect((await stack.client.get(`/api/custom-domains/${created.id}`, { token: owner.token })).body.domain).toBe('mine.list.example');
    const stranger = await registerUser(stack.client);
    const token = stranger.access_token;
    expect((await stack.client.get(`/api/custom-domains/${created.id}`, { token })).status).toBe(404);
    expect((await stack.client.put(`/api/custom-domains/${created.id}`, { forceHttps: true }, { token })).status).toBe(404);
    expect((await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token })).status).toBe(404);
    expect((await stack.client.post(`/api/custom-domains/${created.id}/activate`, {}, { token })).status).toBe(404);
    expect((await stack.client.delete(`/api/custom-domains/${created.id}`, { token })).status).toBe(404);
    expect((await stack.client.post('/api/custom-domains', { domain: 'steal.example', applicationId: owner.app.id }, { token })).status).toBe(404);
    expect((await stack.client.get('/api/custom-domains', {})).status).toBe(401);
    expect((await stack.client.delete(`/api/custom-domains/${created.id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`/api/custom-domains/${created.id}`, { token: owner.token })).status).toBe(404);
  });

  it('records SSL expiry through the TLS probe, once per day across instances', async () => {
    const owner = await userWithApplication(stack.client);
    const created = await claim(owner, 'tls.probe.example');
    dns.zone['tls.probe.example'] = { cname: TARGET };
    await stack.client.post(`/api/custom-domains/${created.id}/verify`, {}, { token: owner.token });
    await stack.client.post(`/api/custom-domains/${created.id}/activate`, {}, { token: owner.token });

    const dir = mkdtempSync(join(tmpdir(), 'tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '10', '-subj', '/CN=tls.probe.example/O=Local CA', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')], { stdio: 'ignore' });
    const server: TlsServer = createTlsServer({ key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) }, (s) => s.end());
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const c = stack.core.container;
      const instance = () =>
        new RefreshSslExpiryUseCase({
          domains: resolve(c, DOMAIN_TOKENS.CustomDomainRepository),
          probe: new NodeTlsProbe({ port: (server.address() as AddressInfo).port, connectTo: () => '127.0.0.1', timeoutMs: 2000 }),
          claims: resolve(c, DOMAIN_TOKENS.RunClaims),
          clock: resolve(c, TOKENS.Clock),
        });
      const runs = await Promise.all([instance().execute(), instance().execute()]);
      expect(runs.filter((r) => r.ran)).toHaveLength(1);
      const seen = await stack.client.get(`/api/custom-domains/${created.id}`, { token: owner.token });
      expect(seen.body.ssl).toMatchObject({ expiresAt: expect.any(String), checkedAt: expect.any(String), error: expect.stringContaining('not trusted') });
      const days = (Date.parse(seen.body.ssl.expiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(9);
      expect((await instance().execute()).ran).toBe(false);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
