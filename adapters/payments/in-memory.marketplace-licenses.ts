import type { LicensedItem, MarketplaceLicenses } from '../../core/billing/ports/marketplace-licenses.port';

/** Marketplace items and licenses in memory, for tests and demos until the marketplace client takes the port. */
export class InMemoryMarketplaceLicenses implements MarketplaceLicenses {
  readonly items = new Map<string, LicensedItem>();
  /** Issued licenses by checkout session: issuing twice for one session keeps one. */
  readonly licenses = new Map<string, { userId: string; itemId: string; checkoutSessionId: string }>();

  async priceOf(itemId: string): Promise<LicensedItem | null> {
    return this.items.has(itemId) ? { ...this.items.get(itemId)! } : null;
  }

  async issueLicense(input: { userId: string; itemId: string; checkoutSessionId: string }): Promise<void> {
    if (!this.licenses.has(input.checkoutSessionId)) this.licenses.set(input.checkoutSessionId, { ...input });
  }

  licensesOf(userId: string): string[] {
    return [...this.licenses.values()].filter((l) => l.userId === userId).map((l) => l.itemId);
  }
}
