import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, createServer, type Server } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { NodeTlsProbe } from '../../../adapters/dns/node.tls-probe';

/** A self-signed certificate for `chat.example.com`, valid 30 days, made at test time with the openssl binary. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'tls-probe-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30',
      '-subj', '/CN=chat.example.com/O=Test Issuer', '-addext', 'subjectAltName=DNS:chat.example.com',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('NodeTlsProbe against a local TLS server with a self-signed certificate', () => {
  let server: Server;
  let port: number;
  let servedName: string | undefined;
  beforeAll(async () => {
    const { key, cert } = selfSigned();
    const context = createSecureContext({ key, cert });
    server = createServer({ key, cert, SNICallback: (name, done) => ((servedName = name), done(null, context)) }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('records the certificate expiry, its issuer, that it is not trusted, and sends the domain as SNI', async () => {
    const probe = new NodeTlsProbe({ port, connectTo: () => '127.0.0.1', timeoutMs: 2000 });
    const result = await probe.probe('chat.example.com');
    expect(result).toMatchObject({ ok: true, issuer: 'Test Issuer', trusted: false });
    if (!result.ok) return;
    const days = (result.validTo.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThan(31);
    expect(servedName).toBe('chat.example.com');
  });

  it('reports a refused connection as an error, not a throw', async () => {
    const probe = new NodeTlsProbe({ port: 1, connectTo: () => '127.0.0.1', timeoutMs: 1000 });
    expect(await probe.probe('chat.example.com')).toMatchObject({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
  });
});
