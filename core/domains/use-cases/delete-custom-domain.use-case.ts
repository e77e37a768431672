import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import { findOwnedDomain } from './domain-policy';

/** `DELETE /api/custom-domains/:id`: in any state; the domain stops routing at once. */
export class DeleteCustomDomainUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications?: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const found = await findOwnedDomain(this.deps.domains, id, actor, 'manage', this.deps.applications ?? null);
    await this.deps.domains.delete(found.id);
  }
}
