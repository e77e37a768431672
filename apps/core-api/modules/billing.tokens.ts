import type { SubscriptionRepository } from '../../../core/billing/ports/subscription-repository.port';
import type { UsageLedger } from '../../../core/billing/ports/usage-ledger.port';
import type { OwnedResources } from '../../../core/billing/ports/owned-resources.port';
import type { PlanCatalog } from '../../../core/billing/domain/plans';
import type { TypeOrmUsageLedger } from '../../../adapters/persistence/billing/type-orm-usage-ledger';
import { token } from '../../shared/tokens';
import type { BillingAccountRepository } from '../../../core/billing/ports/billing-account-repository.port';
import type { MarketplaceLicenses } from '../../../core/billing/ports/marketplace-licenses.port';
import type { PaymentGateway } from '../../../core/billing/ports/payment-gateway.port';

export const BILLING_TOKENS = {
  SubscriptionRepository: token<SubscriptionRepository>('SubscriptionRepository'),
  UsageLedger: token<UsageLedger>('UsageLedger'),
  /** The same ledger, with the lease on this process's reservations (renewed and swept in `start`). */
  LeasedUsageLedger: token<TypeOrmUsageLedger>('LeasedUsageLedger'),
  OwnedResources: token<OwnedResources>('OwnedResources'),
  /** The plans on offer: the defaults, or PLANS_FILE's (read and validated with the configuration). */
  Plans: token<PlanCatalog>('PlanCatalog'),
  /** Stripe when STRIPE_SECRET_KEY is set; otherwise a gateway whose every call answers 503. */
  PaymentGateway: token<PaymentGateway>('PaymentGateway'),
  BillingAccounts: token<BillingAccountRepository>('BillingAccountRepository'),
  /**
   * Paid marketplace items: prices and license issuing. Bound to a null adapter (nothing for sale) until the
   * marketplace client is composed in; rebind this token to it.
   */
  MarketplaceLicenses: token<MarketplaceLicenses>('MarketplaceLicenses'),
} as const;
