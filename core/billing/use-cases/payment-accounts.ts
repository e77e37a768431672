import type { UserRepository } from '../../users/ports/user-repository.port';
import { NotFoundError } from '../../shared/errors';
import type { BillingAccount, BillingAccountRepository } from '../ports/billing-account-repository.port';
import type { PaymentGateway } from '../ports/payment-gateway.port';

export type PaymentAccountDeps = { gateway: PaymentGateway; accounts: BillingAccountRepository; users: Pick<UserRepository, 'findById'> };

/**
 * The user's customer at the payment processor, created on first need. The processor answers the same
 * customer for the same user (idempotent creation), and the store keeps the first one, so concurrent first
 * purchases end on one customer.
 */
export async function ensurePaymentAccount(deps: PaymentAccountDeps, userId: string): Promise<BillingAccount> {
  const existing = await deps.accounts.findByUser(userId);
  if (existing) return existing;
  const user = await deps.users.findById(userId);
  if (!user) throw new NotFoundError('User');
  const customerId = await deps.gateway.createCustomer({ userId, email: user.email });
  const account = await deps.accounts.attachCustomer(userId, customerId);
  if (!account) throw new NotFoundError('User');
  return account;
}
