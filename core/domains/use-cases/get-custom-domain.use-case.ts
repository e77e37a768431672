import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { toCustomDomainView, type CustomDomainView } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import { findOwnedDomain, type DomainPolicy } from './domain-policy';

/** `GET /api/custom-domains/:id`. */
export class GetCustomDomainUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications?: ApplicationRepository; policy: DomainPolicy }) {}

  async execute(id: string, actor: Actor): Promise<CustomDomainView> {
    return toCustomDomainView(await findOwnedDomain(this.deps.domains, id, actor, 'read', this.deps.applications ?? null), this.deps.policy.target);
  }
}
