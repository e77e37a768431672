import { platformAdmins } from '../../../core/billing/use-cases/platform-admins';
import type { Getter } from '../../shared/app-module';
import { TOKENS } from '../../shared/tokens';
import { BILLING_TOKENS } from './billing.tokens';

/**
 * What every plan limit reads (`currentPlan`): the subscriptions, the plans, the platform's admins (never held to
 * a plan) and whether payments are configured (limits then offer an upgrade). For the areas that read plans.
 */
export const planDeps = (get: Getter) => {
  const config = get(TOKENS.Config);
  return {
    subscriptions: get(BILLING_TOKENS.SubscriptionRepository),
    clock: get(TOKENS.Clock),
    plans: get(BILLING_TOKENS.Plans),
    admins: platformAdmins(get(TOKENS.UserRepository), config.adminEmails),
    payments: config.stripe !== undefined,
  };
};
