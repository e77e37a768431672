import { connect, type PeerCertificate } from 'node:tls';
import type { TlsProbe, TlsProbeResult } from '../../core/domains/ports/tls-probe.port';

/**
 * A TLS handshake (SNI = the domain) that reads the certificate the server presents, trusted or not:
 * the expiry is recorded either way, and an untrusted one is reported as such.
 */
export class NodeTlsProbe implements TlsProbe {
  constructor(private readonly options: { port?: number; timeoutMs?: number; connectTo?: (domain: string) => string } = {}) {}

  probe(domain: string): Promise<TlsProbeResult> {
    return new Promise((resolve) => {
      const socket = connect({
        host: this.options.connectTo?.(domain) ?? domain,
        port: this.options.port ?? 443,
        servername: domain,
        rejectUnauthorized: false,
        timeout: this.options.timeoutMs ?? 10_000,
      });
      const done = (result: TlsProbeResult) => {
        socket.destroy();
        resolve(result);
      };
      socket.once('secureConnect', () => {
        const cert: PeerCertificate = socket.getPeerCertificate();
        if (!cert || !cert.valid_to) return done({ ok: false, error: 'the server presented no certificate' });
        const issuer = cert.issuer?.O || cert.issuer?.CN || 'unknown';
        const trusted = socket.authorized && !socket.authorizationError;
        done({ ok: true, validTo: new Date(cert.valid_to), issuer: String(issuer), trusted });
      });
      socket.once('timeout', () => done({ ok: false, error: 'the TLS handshake timed out' }));
      socket.once('error', (error) => done({ ok: false, error: `TLS handshake failed: ${(error as NodeJS.ErrnoException).code ?? error.message}` }));
    });
  }
}
