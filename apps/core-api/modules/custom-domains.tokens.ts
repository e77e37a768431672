import type { CustomDomainRepository } from '../../../core/domains/ports/custom-domain-repository.port';
import type { DnsResolver } from '../../../core/domains/ports/dns-resolver.port';
import type { RunClaims } from '../../../core/domains/ports/run-claims.port';
import type { TlsProbe } from '../../../core/domains/ports/tls-probe.port';
import type { DomainPolicy } from '../../../core/domains/use-cases/domain-policy';
import { token } from '../../shared/tokens';

export const DOMAIN_TOKENS = {
  CustomDomainRepository: token<CustomDomainRepository>('CustomDomainRepository'),
  DnsResolver: token<DnsResolver>('DnsResolver'),
  TlsProbe: token<TlsProbe>('TlsProbe'),
  RunClaims: token<RunClaims>('RunClaims'),
  Policy: token<DomainPolicy>('DomainPolicy'),
} as const;
