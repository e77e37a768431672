import { TeamTurnKeys } from '../../../core/teams/use-cases/team-provider-keys.use-cases';
import type { SubscriptionRepository } from '../../../core/billing/ports/subscription-repository.port';
import type { UsageLedger } from '../../../core/billing/ports/usage-ledger.port';
import type { OwnedResources } from '../../../core/billing/ports/owned-resources.port';
import { PlanCatalog } from '../../../core/billing/domain/plans';
import type { Container } from 'inversify';
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
import { TOKENS, resolve, token } from '../../shared/tokens';
import type { ChatPolicyFactory } from './conversations.module';
import { PROVIDER_KEY_TOKENS } from './provider-keys.module';
import { CachedSubscriptionRepository } from '../../../adapters/cache/cached-repositories';

export const BILLING_TOKENS = {
  SubscriptionRepository: token<SubscriptionRepository>('SubscriptionRepository'),
  UsageLedger: token<UsageLedger>('UsageLedger'),
  OwnedResources: token<OwnedResources>('OwnedResources'),
  /** The plans on offer: the defaults, or PLANS_FILE's (read and validated with the configuration). */
  Plans: token<PlanCatalog>('PlanCatalog'),
} as const;

/** The "keys-and-quota" chat policy, for `conversationsModule([...])` (needs the provider-keys and billing modules). */
export const keysAndQuotaPolicy: ChatPolicyFactory = (c) => resolve(c, KeysAndQuotaPolicy);

/** Plans, subscriptions, usage and the plan-limit guards (SPEC 2.11, 8), and the admin plan endpoint. */
export const billingModule: AppModule = {
  name: 'billing',
  bind(c: Container) {
    provide(c, BILLING_TOKENS.SubscriptionRepository, (get) => new CachedSubscriptionRepository(new TypeOrmSubscriptionRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
    provide(c, BILLING_TOKENS.UsageLedger, (get) => new TypeOrmUsageLedger(get(TOKENS.DataSource)));
    provide(c, BILLING_TOKENS.OwnedResources, (get) => new TypeOrmOwnedResources(get(TOKENS.DataSource)));
    provide(c, BILLING_TOKENS.Plans, (get) => new PlanCatalog(get(TOKENS.Config).plans));
    const deps = (get: Getter) => ({
      subscriptions: get(BILLING_TOKENS.SubscriptionRepository),
      usage: get(BILLING_TOKENS.UsageLedger),
      owned: get(BILLING_TOKENS.OwnedResources),
      clock: get(TOKENS.Clock),
      plans: get(BILLING_TOKENS.Plans),
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
      return (ownerId) => guards.applications(ownerId);
    });
    provide<OwnerQuotaGuard>(c, GUARD_TOKENS.ApiKeyQuotaGuard, (get) => {
      const guards = get(PlanLimitGuards);
      return (ownerId) => guards.apiKeys(ownerId);
    });
    provide(c, ListPlansUseCase, (get) => new ListPlansUseCase(deps(get)));
    provide(c, GetUsageUseCase, (get) => new GetUsageUseCase(deps(get)));
    provide(c, ChangePlanUseCase, (get) => new ChangePlanUseCase({ ...deps(get), ...eventDeps(c, get) }));
    // Usage thresholds are watched off the chat path, from the completed answers.
    provide(c, UsageThresholdWatcher, (get) => new UsageThresholdWatcher({ ...deps(get), events: eventDeps(c, get).events }));
    c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => resolve(c, UsageThresholdWatcher)).inSingletonScope();
  },
  routers: (c) => [
    billingRouter({ auth: resolve(c, TOKENS.AuthMiddleware), plans: resolve(c, ListPlansUseCase), usage: resolve(c, GetUsageUseCase) }),
    adminBillingRouter({ auth: resolve(c, TOKENS.AuthMiddleware), changePlan: resolve(c, ChangePlanUseCase) }),
  ],
};
