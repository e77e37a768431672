/** A paid marketplace item as billing sells it. */
export interface LicensedItem {
  name: string;
  /** Price in the currency's smallest unit (cents). */
  priceCents: number;
  /** ISO 4217, lower case (`usd`). */
  currency: string;
  /** The user who published the item (who is paid for it). */
  authorId: string;
}

/**
 * What billing needs from the marketplace to sell licenses: an item's price, and issuing the license once
 * a checkout for it completed. `issueLicense` is idempotent per checkout session: a webhook delivered
 * twice issues one license.
 */
export interface MarketplaceLicenses {
  /** The item's price; null when there is no such item or it is not for sale. */
  priceOf(itemId: string): Promise<LicensedItem | null>;
  issueLicense(input: { userId: string; itemId: string; checkoutSessionId: string }): Promise<void>;
}

/** No marketplace in this composition: nothing is for sale, nothing is issued. */
export const noMarketplaceLicenses: MarketplaceLicenses = {
  priceOf: async () => null,
  issueLicense: async () => undefined,
};
