import { TeamTurnKeys } from '../../../core/teams/use-cases/team-provider-keys.use-cases';
import { PlanCatalog } from '../../../core/billing/domain/plans';
import type { Container } from 'inversify';
import { isEmbedded } from '../../../adapters/persistence/data-source';
import { adminBillingRouter } from '../../../adapters/http/admin/admin-billing.router';
import { billingRouter } from '../../../adapters/http/billing/billing.router';
import { TypeOrmOwnedResources } from '../../../adapters/persistence/billing/type-orm-owned-resources';
import { TypeOrmSubscriptionRepository } from '../../../adapters/persistence/billing/type-orm-subscription.repository';
import { TypeOrmUsageLedger } from '../../../adapters/persistence/billing/type-orm-usage-ledger';
import { ChangePlanUseCase } from '../../../core/billing/use-cases/change-plan.use-case';
import { UsageThresholdWatcher } from '../../../core/billing/use-cases/usage-thresholds.subscriber';
import { EVENT_TOKENS, eventDeps } from '../../shared/modules/event.tokens';
import { GetUsageUseCase } from '../../../core/billing/use-cases/get-usage.use-case';
import { KeysAndQuotaPolicy } from '../../../core/billing/use-cases/keys-and-quota.policy';
import { ListPlansUseCase } from '../../../core/billing/use-cases/list-plans.use-case';
import { PlanLimitGuards } from '../../../core/billing/use-cases/plan-limit-guards';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { GUARD_TOKENS, type OwnerQuotaGuard } from '../../shared/modules/guard.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { PROVIDER_KEY_TOKENS } from './provider-keys.tokens';
import { CachedSubscriptionRepository } from '../../../adapters/cache/cached-repositories';
import { Cron } from 'croner';
import { StripePaymentGateway } from '../../../adapters/payments/stripe.payment-gateway';
import { unconfiguredPaymentGateway } from '../../../adapters/payments/unconfigured.payment-gateway';
import { TypeOrmBillingAccounts } from '../../../adapters/persistence/billing/type-orm-billing-accounts';
import { noMarketplaceLicenses } from '../../../core/billing/ports/marketplace-licenses.port';
import type { PaymentGateway } from '../../../core/billing/ports/payment-gateway.port';
import { GetSubscriptionUseCase } from '../../../core/billing/use-cases/get-subscription.use-case';
import { HandlePaymentWebhookUseCase } from '../../../core/billing/use-cases/handle-payment-webhook.use-case';
import { LicenseCheckoutUseCase } from '../../../core/billing/use-cases/license-checkout.use-case';
import { ListInvoicesUseCase } from '../../../core/billing/use-cases/list-invoices.use-case';
import { OpenPortalUseCase } from '../../../core/billing/use-cases/open-portal.use-case';
import { ReportOverageUseCase } from '../../../core/billing/use-cases/report-overage.use-case';
import { SubscribeUseCase } from '../../../core/billing/use-cases/subscribe.use-case';
import { consoleBaseUrl, type AppConfig } from '../../shared/config';
import { BILLING_TOKENS } from './billing.tokens';
import { planDeps } from './plan-deps';

/** The Stripe gateway of the configuration, or the unconfigured one. */
function paymentGateway(config: AppConfig): PaymentGateway {
  if (!config.stripe) return unconfiguredPaymentGateway;
  return new StripePaymentGateway({ ...config.stripe, returnUrl: `${consoleBaseUrl(config)}/billing` });
}

/** The "keys-and-quota" chat policy, for `conversationsModule([...])` (needs the provider-keys and billing modules). */
export const keysAndQuotaPolicy: ChatPolicyFactory = (c) => resolve(c, KeysAndQuotaPolicy);

/** Plans, subscriptions, usage and the plan-limit guards (SPEC 2.11, 8), and the admin plan endpoint. */
export const billingModule: AppModule = {
  name: 'billing',
  bind(c: Container) {
    provide(c, BILLING_TOKENS.SubscriptionRepository, (get) =>
      new CachedSubscriptionRepository(new TypeOrmSubscriptionRepository(get(TOKENS.DataSource), get(TOKENS.Config).defaultPlan), get(TOKENS.Cache)),
    );
    // On the embedded database this process is the only one writing the counters (the folder's lock), so the
    // ledger knows them after each write and the usage-threshold watcher needs no read per answer.
    provide(c, BILLING_TOKENS.LeasedUsageLedger, (get) =>
      new TypeOrmUsageLedger(get(TOKENS.DataSource), { leaseMs: get(TOKENS.Config).usageHoldLeaseMs, clock: get(TOKENS.Clock) }, { soleWriter: isEmbedded(get(TOKENS.DataSource)) }),
    );
    provide(c, BILLING_TOKENS.UsageLedger, (get) => get(BILLING_TOKENS.LeasedUsageLedger));
    provide(c, BILLING_TOKENS.OwnedResources, (get) => new TypeOrmOwnedResources(get(TOKENS.DataSource)));
    provide(c, BILLING_TOKENS.Plans, (get) => new PlanCatalog(get(TOKENS.Config).plans));
    provide(c, BILLING_TOKENS.PaymentGateway, (get) => paymentGateway(get(TOKENS.Config)));
    provide(c, BILLING_TOKENS.BillingAccounts, (get) => new TypeOrmBillingAccounts(get(TOKENS.DataSource)));
    provide(c, BILLING_TOKENS.MarketplaceLicenses, () => noMarketplaceLicenses);
    const deps = (get: Getter) => ({
      ...planDeps(get),
      usage: get(BILLING_TOKENS.UsageLedger),
      owned: get(BILLING_TOKENS.OwnedResources),
    });
    provide(c, KeysAndQuotaPolicy, (get) =>
      new KeysAndQuotaPolicy({
        ...deps(get),
        keys: get(PROVIDER_KEY_TOKENS.ProviderKeyRepository),
        secretBox: get(TOKENS.SecretBox),
        teamKeys: c.isBound(TeamTurnKeys) ? get(TeamTurnKeys) : undefined,
      }),
    );
    provide(c, PlanLimitGuards, (get) => new PlanLimitGuards(deps(get)));
    provide<OwnerQuotaGuard>(c, GUARD_TOKENS.ApplicationQuotaGuard, (get) => {
      const guards = get(PlanLimitGuards);
      return (ownerId, callerId) => guards.applications(ownerId, callerId);
    });
    provide<OwnerQuotaGuard>(c, GUARD_TOKENS.ApiKeyQuotaGuard, (get) => {
      const guards = get(PlanLimitGuards);
      return (ownerId, callerId) => guards.apiKeys(ownerId, callerId);
    });
    provide(c, ListPlansUseCase, (get) => new ListPlansUseCase(deps(get)));
    provide(c, GetUsageUseCase, (get) => new GetUsageUseCase(deps(get)));
    provide(c, ChangePlanUseCase, (get) => new ChangePlanUseCase({ ...deps(get), ...eventDeps(c, get) }));
    const payments = (get: Getter) => ({
      gateway: get(BILLING_TOKENS.PaymentGateway),
      accounts: get(BILLING_TOKENS.BillingAccounts),
      users: get(TOKENS.UserRepository),
    });
    provide(c, GetSubscriptionUseCase, (get) => new GetSubscriptionUseCase({ ...deps(get), accounts: get(BILLING_TOKENS.BillingAccounts) }));
    provide(c, SubscribeUseCase, (get) => new SubscribeUseCase({ ...deps(get), ...payments(get) }));
    provide(c, OpenPortalUseCase, (get) => new OpenPortalUseCase(payments(get)));
    provide(c, ListInvoicesUseCase, (get) => new ListInvoicesUseCase(payments(get)));
    provide(c, LicenseCheckoutUseCase, (get) => new LicenseCheckoutUseCase({ ...payments(get), licenses: get(BILLING_TOKENS.MarketplaceLicenses) }));
    provide(c, HandlePaymentWebhookUseCase, (get) =>
      new HandlePaymentWebhookUseCase({ ...deps(get), ...payments(get), licenses: get(BILLING_TOKENS.MarketplaceLicenses), ...eventDeps(c, get) }),
    );
    provide(c, ReportOverageUseCase, (get) => new ReportOverageUseCase({ ...payments(get), clock: get(TOKENS.Clock) }));
    // Usage thresholds are watched off the chat path, from the completed answers.
    provide(c, UsageThresholdWatcher, (get) => new UsageThresholdWatcher({ ...deps(get), events: eventDeps(c, get).events }));
    c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => resolve(c, UsageThresholdWatcher)).inSingletonScope();
  },
  routers: (c) => [
    billingRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      plans: resolve(c, ListPlansUseCase),
      usage: resolve(c, GetUsageUseCase),
      subscription: resolve(c, GetSubscriptionUseCase),
      subscribe: resolve(c, SubscribeUseCase),
      portal: resolve(c, OpenPortalUseCase),
      invoices: resolve(c, ListInvoicesUseCase),
      webhook: resolve(c, HandlePaymentWebhookUseCase),
      licenseCheckout: resolve(c, LicenseCheckoutUseCase),
    }),
    adminBillingRouter({ auth: resolve(c, TOKENS.AuthMiddleware), changePlan: resolve(c, ChangePlanUseCase) }),
  ],
  /**
   * The lease on this process's token reservations, renewed every third of USAGE_HOLD_LEASE_MS, and the
   * sweep giving back those of processes whose lease ran out, every half of it (any instance does it).
   * The overage job: hourly, each instance reports what is due (reports are idempotent per user and
   * period). Neither is on the chat path.
   */
  async start(c: Container) {
    const ledger = resolve(c, BILLING_TOKENS.LeasedUsageLedger);
    const config = resolve(c, TOKENS.Config);
    const logger = resolve(c, TOKENS.Logger);
    await ledger.renew();
    const renew = () => void ledger.renew().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'billing: could not renew the lease on token reservations'));
    const sweep = () =>
      void ledger.releaseExpired().then(
        (n) => n > 0 && logger.info({ released: n }, 'billing: gave back the token reservations of a process whose lease ran out'),
        (err: Error) => logger.warn({ err: { message: err.message } }, 'billing: the sweep of expired token reservations failed'),
      );
    const renewer = setInterval(renew, Math.floor(config.usageHoldLeaseMs / 3));
    const sweeper = setInterval(sweep, Math.floor(config.usageHoldLeaseMs / 2));
    renewer.unref();
    sweeper.unref();
    const stopLeases = () => {
      clearInterval(renewer);
      clearInterval(sweeper);
    };
    if (!config.stripe) return async () => stopLeases();
    const report = resolve(c, ReportOverageUseCase);
    const run = () =>
      report.execute().then(
        (r) => {
          if (r.reported || r.failed) logger.info({ reported: r.reported, tokens: r.tokens, failed: r.failed }, 'billing: overage reported');
        },
        (error: unknown) => logger.error({ err: error }, 'billing: overage report failed'),
      );
    const job = new Cron('41 * * * *', { timezone: 'UTC', protect: true, unref: true }, run);
    return async () => {
      stopLeases();
      job.stop();
    };
  },
};
