import { presetById } from '../../themes/domain/presets';
import { mergeTheme } from '../../themes/domain/theme-rules';
import type { ThemeDefinition, ThemeOverrides } from '../../themes/domain/theme';
import type { Item, License, Review, Version } from './item';

/** A plugin or theme in a list (SPEC shapes of the marketplace plugin and theme list item). */
export interface ItemView {
  id: string;
  name: string;
  slug: string;
  displayName: string;
  description: string;
  version: string;
  author: string;
  authorId: string;
  category: string;
  downloadCount: number;
  ratingCount: number;
  averageRating: number;
  isActive: boolean;
  isPaid: boolean;
  price: number | null;
  featured: boolean;
  iconUrl: string | null;
  /** Themes only. */
  previewUrl?: string | null;
  status: Item['status'];
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

export interface ReviewView {
  id: string;
  pluginId?: string;
  themeId?: string;
  userId: string;
  rating: number;
  title: string;
  comment: string;
  /** The review text as submitted (the same as `comment`). */
  review: string;
  createdAt: string;
  updatedAt: string;
}

export interface ItemDetailView extends ItemView {
  homepage: string | null;
  repository: string | null;
  authorUrl: string | null;
  screenshots: string[];
  manifest: Record<string, unknown>;
  defaultStyles?: Record<string, unknown> | null;
  /** Themes: the complete definition, `defaultStyles` merged over the preset `manifest.extend` names. */
  definition?: ThemeDefinition;
  ratingStats: Item['ratingStats'];
  recentReviews: ReviewView[];
  /** Set when an administrator rejected the submission (shown to its author and administrators). */
  rejectionReason: string | null;
  reviewedAt: string | null;
}

export interface VersionView {
  pluginId?: string;
  themeId?: string;
  version: string;
  changelog: string;
  compatibility: { minPlatformVersion: string | null; maxPlatformVersion: string | null };
  /** Whether this marketplace's platform version lies within the bounds. */
  compatible: boolean;
  downloadUrl: string | null;
  fileSize: number | null;
  checksum: string | null;
  publishedBy: string;
  releasedAt: string;
}

export interface LicenseView {
  id: string;
  pluginId: string;
  userId: string;
  /** The license key: in full only in the answer that issued it. */
  key?: string;
  keyHint: string;
  status: License['status'];
  expiresAt: string | null;
  issuedBy: string;
  createdAt: string;
}

/**
 * A license as its holder lists it: the plugin as the catalogue shows it, the license's status and dates.
 * Never the key (nor its hint), nor who issued it.
 */
export interface HeldLicenseView {
  id: string;
  plugin: { id: string; name: string; displayName: string; slug: string; version: string; author: string; iconUrl: string | null; price: number | null; isActive: boolean };
  status: License['status'];
  expiresAt: string | null;
  createdAt: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toItemView(item: Item): ItemView {
  const view: ItemView = {
    id: item.id,
    name: item.name,
    slug: item.slug,
    displayName: item.displayName,
    description: item.description,
    version: item.version,
    author: item.authorName,
    authorId: item.authorId,
    category: item.category,
    downloadCount: item.downloadCount,
    ratingCount: item.ratingStats.totalReviews,
    averageRating: item.ratingStats.averageRating,
    isActive: item.status === 'published',
    isPaid: item.isPaid,
    price: item.price,
    featured: item.featured,
    iconUrl: item.iconUrl,
    status: item.status,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
    publishedAt: iso(item.publishedAt),
  };
  if (item.kind === 'theme') view.previewUrl = item.previewUrl;
  return view;
}

export function toReviewView(review: Review, kind: Item['kind']): ReviewView {
  return {
    id: review.id,
    ...(kind === 'plugin' ? { pluginId: review.itemId } : { themeId: review.itemId }),
    userId: review.userId,
    rating: review.rating,
    title: review.title,
    comment: review.comment,
    review: review.comment,
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
  };
}

export function toItemDetailView(item: Item, recent: Review[]): ItemDetailView {
  return {
    ...toItemView(item),
    homepage: item.homepage,
    repository: item.repositoryUrl,
    authorUrl: item.authorUrl,
    screenshots: item.screenshots,
    manifest: item.manifest,
    ...(item.kind === 'theme' ? { defaultStyles: item.defaultStyles, definition: themeDefinitionOf(item) } : {}),
    ratingStats: item.ratingStats,
    recentReviews: recent.map((r) => toReviewView(r, item.kind)),
    rejectionReason: item.rejectionReason,
    reviewedAt: iso(item.reviewedAt),
  };
}

export function toVersionView(v: Version, kind: Item['kind'], downloadUrl: string | null, compatible: boolean): VersionView {
  return {
    ...(kind === 'plugin' ? { pluginId: v.itemId } : { themeId: v.itemId }),
    version: v.version,
    changelog: v.changelog,
    compatibility: { minPlatformVersion: v.minPlatformVersion, maxPlatformVersion: v.maxPlatformVersion },
    compatible,
    downloadUrl,
    fileSize: v.fileSize,
    checksum: v.checksum,
    publishedBy: v.publishedBy,
    releasedAt: v.releasedAt.toISOString(),
  };
}

export function toLicenseView(l: License, key?: string): LicenseView {
  return {
    id: l.id,
    pluginId: l.itemId,
    userId: l.userId,
    ...(key ? { key } : {}),
    keyHint: l.keyHint,
    status: l.status,
    expiresAt: iso(l.expiresAt),
    issuedBy: l.issuedBy,
    createdAt: l.createdAt.toISOString(),
  };
}

/** A theme item's complete definition: its overrides merged over the preset it extends. */
export function themeDefinitionOf(item: Item): ThemeDefinition {
  const extend = typeof item.manifest.extend === 'string' ? item.manifest.extend : 'default';
  const base = presetById(extend) ?? presetById('default')!;
  return mergeTheme(base.definition, (item.defaultStyles ?? {}) as ThemeOverrides);
}

export function toHeldLicenseView(l: License, item: Item): HeldLicenseView {
  return {
    id: l.id,
    plugin: {
      id: item.id,
      name: item.name,
      displayName: item.displayName,
      slug: item.slug,
      version: item.version,
      author: item.authorName,
      iconUrl: item.iconUrl,
      price: item.price,
      isActive: item.status === 'published',
    },
    status: l.status,
    expiresAt: iso(l.expiresAt),
    createdAt: l.createdAt.toISOString(),
  };
}
