import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ConflictError } from '../../shared/errors';
import { toCustomDomainView, type CustomDomainView } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import { findOwnedDomain, type DomainPolicy } from './domain-policy';

/**
 * `POST /api/custom-domains/:id/activate`: a verified domain starts serving its application's hosted
 * chat page, which this turns on. Any other state is a 409 naming it.
 */
export class ActivateCustomDomainUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications: ApplicationRepository; policy: DomainPolicy; clock: Clock }) {}

  async execute(id: string, actor: Actor): Promise<CustomDomainView> {
    const found = await findOwnedDomain(this.deps.domains, id, actor, 'manage', this.deps.applications ?? null);
    if (found.status !== 'verified') throw new ConflictError(`Only a verified domain can be activated; this one is ${found.status}`);
    const next = await this.deps.domains.transition(found.id, ['verified'], { status: 'active', activatedAt: this.deps.clock.now() });
    if (!next) throw new ConflictError('The domain changed state meanwhile; try again');
    await this.deps.applications.update(found.applicationId, { hostedPageEnabled: true });
    return toCustomDomainView(next, this.deps.policy.target);
  }
}
