import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ConflictError } from '../../shared/errors';
import { toCustomDomainView, verificationName, type CustomDomain, type CustomDomainView } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import type { DnsAnswer, DnsResolver } from '../ports/dns-resolver.port';
import { findOwnedDomain, type DomainPolicy } from './domain-policy';

const strip = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * `POST /api/custom-domains/:id/verify`: looks the records up (TXT `_ap-verify.<domain>` holding the
 * token, or CNAME `<domain>` to the target); either one verifies. Otherwise `failed` with what was found.
 * An active domain is not re-verified (409).
 */
export class VerifyCustomDomainUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications?: ApplicationRepository; dns: DnsResolver; policy: DomainPolicy; clock: Clock }) {}

  async execute(id: string, actor: Actor): Promise<CustomDomainView> {
    const found = await findOwnedDomain(this.deps.domains, id, actor, 'manage', this.deps.applications ?? null);
    if (found.status === 'active') throw new ConflictError('The domain is active; it is not verified again');
    const [txt, cname] = await Promise.all([this.deps.dns.txt(verificationName(found.domain)), this.deps.dns.cname(found.domain)]);
    const target = strip(this.deps.policy.target);
    const txtOk = txt.ok && txt.records.some((r) => r.trim() === found.verificationToken);
    const cnameOk = cname.ok && cname.records.some((r) => strip(r) === target);
    const now = this.deps.clock.now();
    const next = await this.deps.domains.transition(
      found.id,
      ['pending', 'failed', 'verified'],
      txtOk || cnameOk
        ? { status: 'verified', failureReason: null, verifiedAt: found.verifiedAt ?? now, lastCheckedAt: now }
        : { status: 'failed', failureReason: this.reason(found, txt, cname), lastCheckedAt: now },
    );
    if (!next) throw new ConflictError('The domain changed state meanwhile; try again');
    return toCustomDomainView(next, this.deps.policy.target);
  }

  private reason(d: CustomDomain, txt: DnsAnswer<string>, cname: DnsAnswer<string>): string {
    const txtName = verificationName(d.domain);
    const txtPart = txt.ok
      ? `TXT ${txtName} does not hold the verification token (found: ${txt.records.map((r) => JSON.stringify(r.slice(0, 80))).join(', ') || 'nothing'})`
      : `TXT ${txtName}: ${describe(txt)}`;
    const cnamePart = cname.ok
      ? `CNAME ${d.domain} points to ${cname.records.join(', ')}, not ${this.deps.policy.target}`
      : `CNAME ${d.domain}: ${describe(cname)}`;
    return `${txtPart}; ${cnamePart}`;
  }
}

function describe(answer: Extract<DnsAnswer<string>, { ok: false }>): string {
  switch (answer.reason) {
    case 'not_found':
      return 'no such name (NXDOMAIN)';
    case 'no_data':
      return 'no record of that type';
    case 'timeout':
      return 'the DNS lookup timed out';
    default:
      return `the DNS lookup failed (${answer.message})`;
  }
}
