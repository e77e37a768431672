import type { Actor } from '../../shared/actor';
import { ConflictError } from '../../shared/errors';
import type { BillingAccountRepository } from '../ports/billing-account-repository.port';
import type { PaymentGateway } from '../ports/payment-gateway.port';

/** `POST /api/billing/portal`: a Customer Portal session (payment method, plan changes, cancellation, invoices). */
export class OpenPortalUseCase {
  constructor(private readonly deps: { gateway: PaymentGateway; accounts: BillingAccountRepository }) {}

  async execute(actor: Actor): Promise<{ url: string }> {
    this.deps.gateway.assertAvailable();
    const account = await this.deps.accounts.findByUser(actor.userId);
    if (!account) throw new ConflictError('You have no billing account yet: subscribe to a plan first (POST /api/billing/subscribe)');
    return this.deps.gateway.portalSession(account.customerId);
  }
}
