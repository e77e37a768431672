import type { BrowseSort, Item, ItemKind, ItemStatus, License, Review, Version } from '../domain/item';

/** What a submission stores: the item without what the marketplace keeps itself (id, review state, counts, times). */
export type NewItem = Omit<
  Item,
  'id' | 'status' | 'rejectionReason' | 'reviewedAt' | 'featured' | 'downloadCount' | 'ratingStats' | 'createdAt' | 'updatedAt' | 'publishedAt'
>;

export interface NewVersion {
  version: string;
  changelog: string;
  minPlatformVersion: string | null;
  maxPlatformVersion: string | null;
  externalUrl: string | null;
  package: Buffer | null;
  fileSize: number | null;
  checksum: string | null;
  publishedBy: string;
}

export interface BrowseQuery {
  kind: ItemKind;
  offset: number;
  limit: number;
  /** Free text, matched against name, display name and description by the full-text index. */
  search?: string;
  category?: string;
  sort: BrowseSort;
}

/** The catalog's items and versions. Only `published` items are listed; the others are read by id. */
export interface CatalogRepository {
  /** Creates the item (pending review) with its first version, in one transaction; a taken name or slug is a ConflictError. */
  createWithVersion(item: NewItem, version: NewVersion): Promise<Item>;
  findById(kind: ItemKind, id: string): Promise<Item | null>;
  browse(query: BrowseQuery): Promise<{ items: Item[]; total: number }>;
  featured(kind: ItemKind): Promise<Item[]>;
  categories(kind: ItemKind): Promise<string[]>;
  listByStatus(kind: ItemKind, status: ItemStatus, offset: number, limit: number): Promise<{ items: Item[]; total: number }>;
  listByAuthor(authorId: string): Promise<Item[]>;
  countPending(): Promise<Record<ItemKind, number>>;
  /** Moves a pending (or, for reject, a pending or published) item; null when it is not in one of `from`. */
  review(kind: ItemKind, id: string, from: ItemStatus[], to: ItemStatus, by: string, reason: string | null, at: Date): Promise<Item | null>;
  setFeatured(kind: ItemKind, id: string, featured: boolean): Promise<Item | null>;
  versions(itemId: string): Promise<Version[]>;
  findVersion(itemId: string, version: string): Promise<Version | null>;
  /** Adds a version (a duplicate is a ConflictError) and sets the item's `version` to `newest`, in one transaction. */
  addVersion(itemId: string, version: NewVersion, newest: string): Promise<Version>;
  /** The stored package of a version, counting one download of the item. */
  takePackage(itemId: string, version: string): Promise<Buffer | null>;
  /** Every version of the published items among `itemIds`. */
  versionsOf(kind: ItemKind, itemIds: string[]): Promise<Version[]>;
}

export interface ReviewRepository {
  /**
   * Creates or replaces the user's review and recomputes the item's aggregates from its reviews, in one transaction
   * holding the item's row lock, so concurrent reviews leave exact counts.
   */
  upsert(itemId: string, userId: string, rating: number, title: string, comment: string): Promise<Review>;
  /** Deletes the user's review (false when there was none) and recomputes the aggregates the same way. */
  delete(itemId: string, userId: string): Promise<boolean>;
  list(itemId: string, offset: number, limit: number): Promise<Review[]>;
}

/** A license as its holder sees it: with the item it is for. */
export interface HeldLicense {
  license: License;
  item: Item;
}

export interface LicenseRepository {
  /** Issues (or re-issues, replacing the key of) the user's license for the item. */
  issue(license: { itemId: string; userId: string; keyHash: string; keyHint: string; expiresAt: Date | null; issuedBy: string }): Promise<License>;
  find(itemId: string, userId: string): Promise<License | null>;
  list(itemId: string): Promise<License[]>;
  /** The user's own licenses with their items, newest first, and how many they hold in all. */
  listHeld(userId: string, offset: number, limit: number): Promise<{ held: HeldLicense[]; total: number }>;
  revoke(itemId: string, userId: string): Promise<License | null>;
}
