import type { Clock } from '../../shared/clock.port';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import type { RunClaims } from '../ports/run-claims.port';
import type { TlsProbe } from '../ports/tls-probe.port';

export const SSL_EXPIRY_JOB = 'custom-domains:ssl-expiry';

/**
 * The daily SSL check: a TLS handshake to every active domain records its certificate's expiry (or
 * why there is none). Each UTC day's run is claimed once across all instances; the others skip it.
 */
export class RefreshSslExpiryUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; probe: TlsProbe; claims: RunClaims; clock: Clock }) {}

  async execute(): Promise<{ ran: boolean; checked: number }> {
    const now = this.deps.clock.now();
    if (!(await this.deps.claims.claim(SSL_EXPIRY_JOB, now.toISOString().slice(0, 10)))) return { ran: false, checked: 0 };
    const active = await this.deps.domains.listActive();
    for (const domain of active) {
      const result = await this.deps.probe.probe(domain.domain);
      await this.deps.domains.update(
        domain.id,
        result.ok
          ? { sslExpiresAt: result.validTo, sslCheckedAt: this.deps.clock.now(), sslError: result.trusted ? null : `certificate not trusted (issuer: ${result.issuer})` }
          : { sslCheckedAt: this.deps.clock.now(), sslError: result.error },
      );
    }
    return { ran: true, checked: active.length };
  }
}
