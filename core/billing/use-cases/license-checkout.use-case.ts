import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import type { MarketplaceLicenses } from '../ports/marketplace-licenses.port';
import { ensurePaymentAccount, type PaymentAccountDeps } from './payment-accounts';

const schema = yup.object({
  marketplacePluginId: idField().required('marketplacePluginId is required').max(200, 'marketplacePluginId must be at most 200 characters'),
});

/**
 * `POST /api/billing/licenses/checkout { marketplacePluginId }`: a Checkout Session for a paid marketplace
 * item. The license is issued only when the processor reports the checkout completed (the webhook), never here.
 */
export class LicenseCheckoutUseCase {
  constructor(private readonly deps: PaymentAccountDeps & { licenses: MarketplaceLicenses }) {}

  async execute(actor: Actor, input: unknown): Promise<{ url: string; sessionId: string }> {
    this.deps.gateway.assertAvailable();
    const { marketplacePluginId } = await validate(schema, input);
    const item = await this.deps.licenses.priceOf(marketplacePluginId);
    if (!item) throw new NotFoundError('Marketplace item', 'Marketplace item not found or not for sale');
    if (item.authorId === actor.userId) throw new ConflictError('You published this item: you do not need a license for it');
    if (!Number.isInteger(item.priceCents) || item.priceCents <= 0) throw new ConflictError('This item is free: install it without a license');
    const account = await ensurePaymentAccount(this.deps, actor.userId);
    const session = await this.deps.gateway.licenseCheckout({
      customerId: account.customerId,
      userId: actor.userId,
      itemId: marketplacePluginId,
      name: item.name,
      priceCents: item.priceCents,
      currency: item.currency,
      authorId: item.authorId,
    });
    return { url: session.url, sessionId: session.id };
  }
}
