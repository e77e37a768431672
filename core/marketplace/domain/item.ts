/** Catalog items of the marketplace (plugins and themes), their versions, reviews and licenses. */
export type ItemKind = 'plugin' | 'theme';
export type ItemStatus = 'pending' | 'published' | 'rejected';

export const PLUGIN_CATEGORIES = ['chat', 'analytics', 'integrations', 'security', 'ai-tools', 'productivity', 'ecommerce', 'content'] as const;
export const THEME_CATEGORIES = ['business', 'portfolio', 'blog', 'ecommerce', 'landing', 'dashboard', 'minimal', 'creative'] as const;
export const CATEGORIES: Record<ItemKind, readonly string[]> = { plugin: PLUGIN_CATEGORIES, theme: THEME_CATEGORIES };
/** The category of an item submitted without one. */
export const DEFAULT_CATEGORY: Record<ItemKind, string> = { plugin: 'productivity', theme: 'minimal' };

export const SORTS = ['popular', 'recent', 'rating'] as const;
export type BrowseSort = (typeof SORTS)[number];

export interface RatingStats {
  averageRating: number;
  totalReviews: number;
  distribution: Record<'1' | '2' | '3' | '4' | '5', number>;
}

export interface Item {
  id: string;
  kind: ItemKind;
  name: string;
  slug: string;
  displayName: string;
  description: string;
  category: string;
  authorId: string;
  authorName: string;
  authorUrl: string | null;
  homepage: string | null;
  repositoryUrl: string | null;
  iconUrl: string | null;
  previewUrl: string | null;
  screenshots: string[];
  isPaid: boolean;
  price: number | null;
  manifest: Record<string, unknown>;
  defaultStyles: Record<string, unknown> | null;
  version: string;
  status: ItemStatus;
  rejectionReason: string | null;
  reviewedAt: Date | null;
  featured: boolean;
  downloadCount: number;
  ratingStats: RatingStats;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
}

export interface Version {
  id: string;
  itemId: string;
  version: string;
  changelog: string;
  minPlatformVersion: string | null;
  maxPlatformVersion: string | null;
  /** Where the package is when it is hosted elsewhere; null when the marketplace stores it. */
  externalUrl: string | null;
  hasPackage: boolean;
  fileSize: number | null;
  checksum: string | null;
  publishedBy: string;
  releasedAt: Date;
}

export interface Review {
  id: string;
  itemId: string;
  userId: string;
  rating: number;
  title: string;
  comment: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface License {
  id: string;
  itemId: string;
  userId: string;
  keyHint: string;
  status: 'active' | 'revoked';
  expiresAt: Date | null;
  issuedBy: string;
  createdAt: Date;
}

export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Aggregates from per-star counts: the average rounded to two decimals, 0 without reviews. */
export function ratingStatsOf(counts: [number, number, number, number, number]): RatingStats {
  const total = counts.reduce((a, b) => a + b, 0);
  const sum = counts.reduce((a, c, i) => a + c * (i + 1), 0);
  return {
    averageRating: total ? round2(sum / total) : 0,
    totalReviews: total,
    distribution: { '1': counts[0], '2': counts[1], '3': counts[2], '4': counts[3], '5': counts[4] },
  };
}
