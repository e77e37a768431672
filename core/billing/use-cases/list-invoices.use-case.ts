import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import type { InvoicePage } from '../domain/payments';
import type { BillingAccountRepository } from '../ports/billing-account-repository.port';
import type { PaymentGateway } from '../ports/payment-gateway.port';

const CURSOR = /^in_[A-Za-z0-9_]{1,250}$/;

/** `GET /api/billing/invoices?limit=&startingAfter=`: the caller's invoices from the processor, newest first. */
export class ListInvoicesUseCase {
  constructor(private readonly deps: { gateway: PaymentGateway; accounts: BillingAccountRepository }) {}

  async execute(actor: Actor, query: { limit?: unknown; startingAfter?: unknown }): Promise<InvoicePage> {
    this.deps.gateway.assertAvailable();
    const limit = readLimit(query.limit);
    const startingAfter = query.startingAfter === undefined || query.startingAfter === '' ? undefined : query.startingAfter;
    if (startingAfter !== undefined && (typeof startingAfter !== 'string' || !CURSOR.test(startingAfter))) {
      throw ValidationError.field('startingAfter', 'startingAfter must be an invoice id (in_…) from a previous page');
    }
    const account = await this.deps.accounts.findByUser(actor.userId);
    if (!account) return { items: [], hasMore: false, nextCursor: null };
    return this.deps.gateway.invoices(account.customerId, { limit, startingAfter });
  }
}

function readLimit(raw: unknown): number {
  if (raw === undefined || raw === '') return 10;
  const value = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > 100) throw ValidationError.field('limit', 'limit must be an integer from 1 to 100');
  return value;
}
