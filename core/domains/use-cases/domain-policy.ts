import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
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

/** The caller's domain, or a 404 that does not tell "not yours" from "does not exist". */
export async function findOwnedDomain(domains: CustomDomainRepository, id: unknown, actor: Actor): Promise<CustomDomain> {
  const found = isUuid(id) ? await domains.findById(id) : null;
  if (!found || found.ownerId !== actor.userId) throw new NotFoundError('Custom domain');
  return found;
}
