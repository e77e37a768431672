import { NotFoundError } from '../../shared/errors';
import { normalizeDomain } from '../domain/custom-domain';
import type { RouteHostUseCase } from './route-host.use-case';

/**
 * `GET /api/custom-domains/tls-allowed?domain=`: the reverse proxy's question before it obtains a
 * certificate (Caddy's on-demand TLS `ask`): yes (200) only for names this platform serves.
 */
export class CheckTlsAllowedUseCase {
  constructor(private readonly deps: { routes: RouteHostUseCase }) {}

  async execute(query: { domain?: unknown }): Promise<{ domain: string; allowed: true }> {
    const domain = typeof query.domain === 'string' ? normalizeDomain(query.domain) : null;
    if (!domain || !(await this.deps.routes.execute(domain))) throw new NotFoundError('Domain', 'No active custom domain by that name');
    return { domain, allowed: true };
  }
}
