import { Cron } from 'croner';
import type { Container } from 'inversify';
import { NodeDnsResolver } from '../../../adapters/dns/node.dns-resolver';
import { NodeTlsProbe } from '../../../adapters/dns/node.tls-probe';
import { customDomainHost } from '../../../adapters/http/domains/custom-domain-host.middleware';
import { customDomainsRouter } from '../../../adapters/http/domains/custom-domains.router';
import { TypeOrmCustomDomainRepository } from '../../../adapters/persistence/domains/type-orm-custom-domain.repository';
import { TypeOrmRunClaims } from '../../../adapters/persistence/domains/type-orm-run-claims';
import { ActivateCustomDomainUseCase } from '../../../core/domains/use-cases/activate-custom-domain.use-case';
import { CheckTlsAllowedUseCase } from '../../../core/domains/use-cases/check-tls-allowed.use-case';
import { CreateCustomDomainUseCase } from '../../../core/domains/use-cases/create-custom-domain.use-case';
import { DeleteCustomDomainUseCase } from '../../../core/domains/use-cases/delete-custom-domain.use-case';
import { GetCustomDomainUseCase } from '../../../core/domains/use-cases/get-custom-domain.use-case';
import { ListCustomDomainsUseCase } from '../../../core/domains/use-cases/list-custom-domains.use-case';
import { RefreshSslExpiryUseCase } from '../../../core/domains/use-cases/refresh-ssl-expiry.use-case';
import { RouteHostUseCase } from '../../../core/domains/use-cases/route-host.use-case';
import { UpdateCustomDomainUseCase } from '../../../core/domains/use-cases/update-custom-domain.use-case';
import { VerifyCustomDomainUseCase } from '../../../core/domains/use-cases/verify-custom-domain.use-case';
import { GetHostedApplicationUseCase } from '../../../core/public-api/use-cases/get-hosted-application.use-case';
import type { AppConfig } from '../../shared/config';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { DOMAIN_TOKENS } from './custom-domains.tokens';

/** The platform's own host names: PUBLIC_BASE_URL's (or localhost), never claimable, never routed as custom. */
export function platformHosts(config: AppConfig): string[] {
  return [config.publicBaseUrl ? new URL(config.publicBaseUrl).hostname.toLowerCase() : 'localhost'];
}

/**
 * Custom domains (SPEC 2.11; EXTENSIONS.md): claim, verify by DNS, activate, settings, Host routing to
 * the hosted page, the TLS `ask` endpoint, and the daily SSL-expiry check (once across instances).
 * Needs the hosted-page module. Bind a DnsResolver or TlsProbe before this module to replace them.
 */
export const customDomainsModule: AppModule = {
  name: 'custom-domains',
  bind(c: Container) {
    const config = (get: Getter) => get(TOKENS.Config);
    provide(c, DOMAIN_TOKENS.CustomDomainRepository, (get) => new TypeOrmCustomDomainRepository(get(TOKENS.DataSource)));
    if (!c.isBound(DOMAIN_TOKENS.DnsResolver)) provide(c, DOMAIN_TOKENS.DnsResolver, (get) => new NodeDnsResolver({ servers: config(get).dnsServers }));
    if (!c.isBound(DOMAIN_TOKENS.TlsProbe)) provide(c, DOMAIN_TOKENS.TlsProbe, () => new NodeTlsProbe());
    provide(c, DOMAIN_TOKENS.RunClaims, (get) => new TypeOrmRunClaims(get(TOKENS.DataSource)));
    provide(c, DOMAIN_TOKENS.Policy, (get) => {
      const hosts = platformHosts(config(get));
      return { reserved: [...hosts, ...config(get).reservedDomains], target: config(get).customDomainTarget ?? hosts[0]! };
    });
    const base = (get: Getter) => ({ domains: get(DOMAIN_TOKENS.CustomDomainRepository), policy: get(DOMAIN_TOKENS.Policy), applications: get(TOKENS.ApplicationRepository) });
    provide(c, CreateCustomDomainUseCase, (get) => new CreateCustomDomainUseCase(base(get)));
    provide(c, ListCustomDomainsUseCase, (get) => new ListCustomDomainsUseCase(base(get)));
    provide(c, GetCustomDomainUseCase, (get) => new GetCustomDomainUseCase(base(get)));
    provide(c, UpdateCustomDomainUseCase, (get) => new UpdateCustomDomainUseCase(base(get)));
    provide(c, DeleteCustomDomainUseCase, (get) => new DeleteCustomDomainUseCase(base(get)));
    provide(c, VerifyCustomDomainUseCase, (get) =>
      new VerifyCustomDomainUseCase({ ...base(get), dns: get(DOMAIN_TOKENS.DnsResolver), clock: get(TOKENS.Clock) }),
    );
    provide(c, ActivateCustomDomainUseCase, (get) =>
      new ActivateCustomDomainUseCase({ ...base(get), clock: get(TOKENS.Clock) }),
    );
    provide(c, RouteHostUseCase, (get) =>
      new RouteHostUseCase({ domains: get(DOMAIN_TOKENS.CustomDomainRepository), applications: get(TOKENS.ApplicationRepository) }),
    );
    provide(c, CheckTlsAllowedUseCase, (get) => new CheckTlsAllowedUseCase({ routes: get(RouteHostUseCase) }));
    provide(c, RefreshSslExpiryUseCase, (get) =>
      new RefreshSslExpiryUseCase({
        domains: get(DOMAIN_TOKENS.CustomDomainRepository),
        probe: get(DOMAIN_TOKENS.TlsProbe),
        claims: get(DOMAIN_TOKENS.RunClaims),
        clock: get(TOKENS.Clock),
      }),
    );
  },
  middleware: (c) => [
    customDomainHost({ routes: resolve(c, RouteHostUseCase), page: resolve(c, GetHostedApplicationUseCase), platformHosts: platformHosts(resolve(c, TOKENS.Config)) }),
  ],
  routers: (c) => [
    customDomainsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateCustomDomainUseCase),
      list: resolve(c, ListCustomDomainsUseCase),
      get: resolve(c, GetCustomDomainUseCase),
      update: resolve(c, UpdateCustomDomainUseCase),
      remove: resolve(c, DeleteCustomDomainUseCase),
      verify: resolve(c, VerifyCustomDomainUseCase),
      activate: resolve(c, ActivateCustomDomainUseCase),
      tlsAllowed: resolve(c, CheckTlsAllowedUseCase),
    }),
  ],
  /** The SSL check: every hour each instance tries to claim today's run; the first claim of the day runs it. */
  async start(c: Container) {
    const refresh = resolve(c, RefreshSslExpiryUseCase);
    const logger = resolve(c, TOKENS.Logger);
    const run = () =>
      refresh.execute().then(
        (result) => {
          if (result.ran) logger.info({ checked: result.checked }, 'custom domains: SSL expiry refreshed');
        },
        (error: unknown) => logger.error({ err: error }, 'custom domains: SSL expiry refresh failed'),
      );
    const job = new Cron('17 * * * *', { timezone: 'UTC', protect: true, unref: true }, run);
    return async () => {
      job.stop();
    };
  },
};
