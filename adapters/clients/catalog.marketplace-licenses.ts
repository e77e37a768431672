import type { LicensedItem, MarketplaceLicenses } from '../../core/billing/ports/marketplace-licenses.port';
import type { MarketplaceCatalog } from '../../core/marketplace/ports/marketplace-catalog.port';
import { UpstreamError } from '../../core/shared/errors';
import { isUuid } from '../../core/shared/ids';

/** The part of a marketplace plugin's detail that billing reads. */
interface PaidItemBody {
  name?: unknown;
  displayName?: unknown;
  isPaid?: unknown;
  price?: unknown;
  authorId?: unknown;
}

/**
 * Billing's view of the marketplace (the `MarketplaceLicenses` port) over the `MarketplaceCatalog`: an item's
 * price is its published detail (US dollars, turned into cents), and a license bought through Checkout is issued
 * at the marketplace on behalf of the item's author, who is the one allowed to issue it. The marketplace keeps one
 * license per user and item (issuing again re-activates it), so a repeated webhook issues nothing new.
 */
export class CatalogMarketplaceLicenses implements MarketplaceLicenses {
  constructor(private readonly catalog: MarketplaceCatalog) {}

  async priceOf(itemId: string): Promise<LicensedItem | null> {
    if (!this.catalog.configured || !isUuid(itemId)) return null;
    const res = await this.catalog.forward({ method: 'GET', path: `/plugins/${itemId}` });
    if (res.status === 404) return null;
    if (res.status !== 200) throw new UpstreamError(`The marketplace answered ${res.status} for the item`);
    const body = (res.body ?? {}) as PaidItemBody;
    if (body.isPaid !== true || typeof body.price !== 'number' || !(body.price > 0) || typeof body.authorId !== 'string') return null;
    const name = typeof body.displayName === 'string' && body.displayName ? body.displayName : String(body.name ?? 'Marketplace plugin');
    return { name, priceCents: Math.round(body.price * 100), currency: 'usd', authorId: body.authorId };
  }

  async issueLicense(input: { userId: string; itemId: string; checkoutSessionId: string }): Promise<void> {
    const item = await this.priceOf(input.itemId);
    if (!item) throw new UpstreamError('The marketplace no longer sells this item; the license was not issued');
    const res = await this.catalog.forward({
      method: 'POST',
      path: `/plugins/${input.itemId}/licenses`,
      body: { userId: input.userId },
      actor: { userId: item.authorId, role: 'user' },
    });
    if (res.status < 200 || res.status >= 300) throw new UpstreamError(`The marketplace refused to issue the license (${res.status})`);
  }
}
