import type { Actor } from '../../shared/actor';
import type { AccessAction } from '../../access/roles';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { authorizeUnderApplication } from '../../applications/use-cases/find-owned-application';
import { isUuid } from '../../shared/ids';
import type { CustomDomain } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';

/** The operator's settings for custom domains. */
export interface DomainPolicy {
  /** RESERVED_DOMAINS plus the platform's own host. */
  reserved: string[];
  /** CUSTOM_DOMAIN_TARGET: what a domain's CNAME must point to. */
  target: string;
}

/**
 * The domain if the caller may perform `action` on its application (core/access decides; the strictest
 * action by default), or a 404 that does not tell "not yours" from "does not exist". Without
 * `applications`, only the domain's owner passes.
 */
export async function findOwnedDomain(
  domains: CustomDomainRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
  applications: ApplicationRepository | null = null,
): Promise<CustomDomain> {
  const found = isUuid(id) ? await domains.findById(id) : null;
  await authorizeUnderApplication(found, actor, action, 'Custom domain', applications);
  return found!;
}
