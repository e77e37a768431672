import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ConflictError, ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import { isReservedDomain, normalizeDomain, toCustomDomainView, type CustomDomainView } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';
import type { DomainPolicy } from './domain-policy';

const schema = yup.object({
  domain: str().required('domain is required').max(253, 'domain must be at most 253 characters'),
  applicationId: str().required('applicationId is required'),
});

/**
 * `POST /api/custom-domains`: claims a domain for one of the caller's applications, `pending` until
 * its DNS records are verified. Reserved names are refused (400); a domain already claimed by anyone
 * is a 409.
 */
export class CreateCustomDomainUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications: ApplicationRepository; policy: DomainPolicy }) {}

  async execute(input: unknown, actor: Actor): Promise<CustomDomainView> {
    const body = await validate(schema, input);
    const domain = normalizeDomain(body.domain);
    if (!domain) throw ValidationError.field('domain', 'domain must be a host name such as chat.example.com');
    if (isReservedDomain(domain, this.deps.policy.reserved)) throw ValidationError.field('domain', `${domain} is reserved and cannot be used`);
    const app = await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'manage');
    if (await this.deps.domains.findByDomain(domain)) throw new ConflictError(`${domain} is already connected to an application`);
    const created = await this.deps.domains.create({
      ownerId: actor.userId,
      applicationId: app.id,
      domain,
      verificationToken: `ap-verify-${randomBytes(16).toString('hex')}`,
    });
    return toCustomDomainView(created, this.deps.policy.target);
  }
}
