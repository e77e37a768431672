import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { CustomDomain } from '../domain/custom-domain';
import type { CustomDomainRepository } from '../ports/custom-domain-repository.port';

export type HostRoute =
  | { kind: 'redirect-www'; domain: CustomDomain }
  | { kind: 'serve'; domain: CustomDomain; slug: string; applicationId: string };

/**
 * Which application a request's host belongs to: an active custom domain serves its application's
 * hosted page; `www.<domain>` of one that redirects www is sent there. Anything else is not ours (null).
 */
export class RouteHostUseCase {
  constructor(private readonly deps: { domains: CustomDomainRepository; applications: ApplicationRepository }) {}

  async execute(host: string): Promise<HostRoute | null> {
    const name = host.toLowerCase().replace(/\.$/, '');
    const direct = await this.deps.domains.findByDomain(name);
    if (direct?.status === 'active') {
      const app = await this.deps.applications.findById(direct.applicationId);
      return app ? { kind: 'serve', domain: direct, slug: app.slug, applicationId: app.id } : null;
    }
    if (!direct && name.startsWith('www.')) {
      const bare = await this.deps.domains.findByDomain(name.slice(4));
      if (bare?.status === 'active' && bare.settings.redirectWww) return { kind: 'redirect-www', domain: bare };
    }
    return null;
  }
}
