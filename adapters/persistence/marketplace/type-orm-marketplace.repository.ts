import type { DataSource } from 'typeorm';
import { ratingStatsOf, type Item, type ItemKind, type ItemStatus, type License, type Review, type Version } from '../../../core/marketplace/domain/item';
import type {
  BrowseQuery,
  CatalogRepository,
  HeldLicense,
  LicenseRepository,
  NewItem,
  NewVersion,
  ReviewRepository,
} from '../../../core/marketplace/ports/marketplace-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import { one, rows, uniquely, type Sql } from '../sql';

interface ItemRow {
  id: string;
  kind: ItemKind;
  name: string;
  slug: string;
  display_name: string;
  description: string;
  category: string;
  author_id: string;
  author_name: string;
  author_url: string | null;
  homepage: string | null;
  repository_url: string | null;
  icon_url: string | null;
  preview_url: string | null;
  screenshots: string[];
  is_paid: boolean;
  price: string | number | null;
  manifest: Record<string, unknown>;
  default_styles: Record<string, unknown> | null;
  version: string;
  status: ItemStatus;
  rejection_reason: string | null;
  reviewed_at: Date | null;
  featured: boolean;
  download_count: number;
  rating_1: number;
  rating_2: number;
  rating_3: number;
  rating_4: number;
  rating_5: number;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
}

/** Every column but the generated search vector. */
const ITEM_COLUMNS = `id, kind, name, slug, display_name, description, category, author_id, author_name, author_url, homepage,
  repository_url, icon_url, preview_url, screenshots, is_paid, price, manifest, default_styles, version, status, rejection_reason,
  reviewed_at, featured, download_count, rating_1, rating_2, rating_3, rating_4, rating_5, created_at, updated_at, published_at`;

const date = (d: Date | string | null): Date | null => (d === null ? null : new Date(d));

const toItem = (r: ItemRow): Item => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  slug: r.slug,
  displayName: r.display_name,
  description: r.description,
  category: r.category,
  authorId: r.author_id,
  authorName: r.author_name,
  authorUrl: r.author_url,
  homepage: r.homepage,
  repositoryUrl: r.repository_url,
  iconUrl: r.icon_url,
  previewUrl: r.preview_url,
  screenshots: r.screenshots ?? [],
  isPaid: r.is_paid,
  price: r.price === null ? null : Number(r.price),
  manifest: r.manifest ?? {},
  defaultStyles: r.default_styles,
  version: r.version,
  status: r.status,
  rejectionReason: r.rejection_reason,
  reviewedAt: date(r.reviewed_at),
  featured: r.featured,
  downloadCount: r.download_count,
  ratingStats: ratingStatsOf([r.rating_1, r.rating_2, r.rating_3, r.rating_4, r.rating_5]),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
  publishedAt: date(r.published_at),
});

interface VersionRow {
  id: string;
  item_id: string;
  version: string;
  changelog: string;
  min_platform_version: string | null;
  max_platform_version: string | null;
  external_url: string | null;
  has_package: boolean;
  file_size: number | null;
  checksum: string | null;
  published_by: string;
  released_at: Date;
}

const VERSION_COLUMNS = `id, item_id, version, changelog, min_platform_version, max_platform_version, external_url,
  package IS NOT NULL AS has_package, file_size, checksum, published_by, released_at`;

const toVersion = (r: VersionRow): Version => ({
  id: r.id,
  itemId: r.item_id,
  version: r.version,
  changelog: r.changelog,
  minPlatformVersion: r.min_platform_version,
  maxPlatformVersion: r.max_platform_version,
  externalUrl: r.external_url,
  hasPackage: r.has_package,
  fileSize: r.file_size,
  checksum: r.checksum,
  publishedBy: r.published_by,
  releasedAt: new Date(r.released_at),
});

const ORDER: Record<BrowseQuery['sort'], string> = {
  popular: 'download_count DESC, rating_count DESC, published_at DESC NULLS LAST, id',
  recent: 'published_at DESC NULLS LAST, created_at DESC, id',
  rating: 'rating_sum::numeric / NULLIF(rating_count, 0) DESC NULLS LAST, rating_count DESC, download_count DESC, id',
};

const conflict = (constraint: string) =>
  constraint.includes('slug') ? 'An item with this slug exists already' : constraint.includes('name') ? 'An item with this name exists already' : 'This version exists already';

async function insertVersion(sql: Sql, itemId: string, v: NewVersion): Promise<Version> {
  const row = await one<VersionRow>(
    sql,
    `INSERT INTO marketplace_versions (item_id, version, changelog, min_platform_version, max_platform_version, external_url, package, file_size, checksum, published_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${VERSION_COLUMNS}`,
    [itemId, v.version, v.changelog, v.minPlatformVersion, v.maxPlatformVersion, v.externalUrl, v.package, v.fileSize, v.checksum, v.publishedBy],
  );
  return toVersion(row!);
}

export class TypeOrmCatalogRepository implements CatalogRepository {
  constructor(private readonly db: DataSource) {}

  createWithVersion(item: NewItem, version: NewVersion): Promise<Item> {
    return uniquely(
      () =>
        this.db.transaction(async (tx) => {
          const row = await one<ItemRow>(
            tx,
            `INSERT INTO marketplace_items (kind, name, slug, display_name, description, category, author_id, author_name, author_url, homepage,
               repository_url, icon_url, preview_url, screenshots, is_paid, price, manifest, default_styles, version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16, $17::jsonb, $18::jsonb, $19)
             RETURNING ${ITEM_COLUMNS}`,
            [
              item.kind, item.name, item.slug, item.displayName, item.description, item.category, item.authorId, item.authorName, item.authorUrl,
              item.homepage, item.repositoryUrl, item.iconUrl, item.previewUrl, JSON.stringify(item.screenshots), item.isPaid, item.price,
              JSON.stringify(item.manifest), item.defaultStyles === null ? null : JSON.stringify(item.defaultStyles), item.version,
            ],
          );
          await insertVersion(tx, row!.id, version);
          return toItem(row!);
        }),
      conflict,
    );
  }

  async findById(kind: ItemKind, id: string): Promise<Item | null> {
    const row = await one<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM marketplace_items WHERE id = $1 AND kind = $2`, [id, kind]);
    return row && toItem(row);
  }

  async browse(q: BrowseQuery): Promise<{ items: Item[]; total: number }> {
    const params: unknown[] = [q.kind];
    let where = `kind = $1 AND status = 'published'`;
    if (q.search) {
      params.push(q.search);
      where += ` AND search @@ websearch_to_tsquery('simple', $${params.length})`;
    }
    if (q.category) {
      params.push(q.category);
      where += ` AND category = $${params.length}`;
    }
    const [items, count] = await Promise.all([
      rows<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM marketplace_items WHERE ${where} ORDER BY ${ORDER[q.sort]} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
        ...params,
        q.limit,
        q.offset,
      ]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM marketplace_items WHERE ${where}`, params),
    ]);
    return { items: items.map(toItem), total: count?.n ?? 0 };
  }

  async featured(kind: ItemKind): Promise<Item[]> {
    const list = await rows<ItemRow>(
      this.db,
      `SELECT ${ITEM_COLUMNS} FROM marketplace_items WHERE kind = $1 AND status = 'published' AND featured ORDER BY ${ORDER.popular} LIMIT 100`,
      [kind],
    );
    return list.map(toItem);
  }

  async categories(kind: ItemKind): Promise<string[]> {
    const list = await rows<{ category: string }>(this.db, `SELECT DISTINCT category FROM marketplace_items WHERE kind = $1 AND status = 'published' ORDER BY category`, [kind]);
    return list.map((r) => r.category);
  }

  async listByStatus(kind: ItemKind, status: ItemStatus, offset: number, limit: number): Promise<{ items: Item[]; total: number }> {
    const [items, count] = await Promise.all([
      rows<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM marketplace_items WHERE kind = $1 AND status = $2 ORDER BY created_at, id LIMIT $3 OFFSET $4`, [kind, status, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM marketplace_items WHERE kind = $1 AND status = $2`, [kind, status]),
    ]);
    return { items: items.map(toItem), total: count?.n ?? 0 };
  }

  async listByAuthor(authorId: string): Promise<Item[]> {
    const list = await rows<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM marketplace_items WHERE author_id = $1 ORDER BY created_at DESC, id LIMIT 500`, [authorId]);
    return list.map(toItem);
  }

  async countPending(): Promise<Record<ItemKind, number>> {
    const list = await rows<{ kind: ItemKind; n: number }>(this.db, `SELECT kind, count(*)::int AS n FROM marketplace_items WHERE status = 'pending' GROUP BY kind`);
    const counts: Record<ItemKind, number> = { plugin: 0, theme: 0 };
    for (const r of list) counts[r.kind] = r.n;
    return counts;
  }

  async review(kind: ItemKind, id: string, from: ItemStatus[], to: ItemStatus, by: string, reason: string | null, at: Date): Promise<Item | null> {
    const row = await one<ItemRow>(
      this.db,
      `UPDATE marketplace_items
          SET status = $4, rejection_reason = $5, reviewed_by = $6, reviewed_at = $7, updated_at = $7,
              published_at = CASE WHEN $4 = 'published' THEN COALESCE(published_at, $7) ELSE published_at END,
              featured = CASE WHEN $4 = 'published' THEN featured ELSE false END
        WHERE id = $1 AND kind = $2 AND status = ANY($3::text[])
        RETURNING ${ITEM_COLUMNS}`,
      [id, kind, from, to, reason, by, at],
    );
    return row && toItem(row);
  }

  async setFeatured(kind: ItemKind, id: string, featured: boolean): Promise<Item | null> {
    const row = await one<ItemRow>(
      this.db,
      `UPDATE marketplace_items SET featured = $3, updated_at = now() WHERE id = $1 AND kind = $2 RETURNING ${ITEM_COLUMNS}`,
      [id, kind, featured],
    );
    return row && toItem(row);
  }

  async versions(itemId: string): Promise<Version[]> {
    const list = await rows<VersionRow>(this.db, `SELECT ${VERSION_COLUMNS} FROM marketplace_versions WHERE item_id = $1`, [itemId]);
    return list.map(toVersion);
  }

  async findVersion(itemId: string, version: string): Promise<Version | null> {
    const row = await one<VersionRow>(this.db, `SELECT ${VERSION_COLUMNS} FROM marketplace_versions WHERE item_id = $1 AND version = $2`, [itemId, version]);
    return row && toVersion(row);
  }

  addVersion(itemId: string, version: NewVersion, newest: string): Promise<Version> {
    return uniquely(
      () =>
        this.db.transaction(async (tx) => {
          const added = await insertVersion(tx, itemId, version);
          await tx.query(`UPDATE marketplace_items SET version = $2, updated_at = now() WHERE id = $1`, [itemId, newest]);
          return added;
        }),
      conflict,
    );
  }

  async takePackage(itemId: string, version: string): Promise<Buffer | null> {
    const row = await one<{ package: Buffer | Uint8Array | null }>(this.db, `SELECT package FROM marketplace_versions WHERE item_id = $1 AND version = $2`, [itemId, version]);
    if (!row?.package) return null;
    await rows(this.db, `UPDATE marketplace_items SET download_count = download_count + 1 WHERE id = $1`, [itemId]);
    return Buffer.from(row.package);
  }

  async versionsOf(kind: ItemKind, itemIds: string[]): Promise<Version[]> {
    if (!itemIds.length) return [];
    const list = await rows<VersionRow>(
      this.db,
      `SELECT ${VERSION_COLUMNS.replace(/\b(id|item_id|version|package)\b/g, 'v.$1')} FROM marketplace_versions v
         JOIN marketplace_items i ON i.id = v.item_id
        WHERE v.item_id = ANY($1::uuid[]) AND i.kind = $2 AND i.status = 'published'`,
      [itemIds, kind],
    );
    return list.map(toVersion);
  }
}

interface ReviewRow {
  id: string;
  item_id: string;
  user_id: string;
  rating: number;
  title: string;
  comment: string;
  created_at: Date;
  updated_at: Date;
}

const toReview = (r: ReviewRow): Review => ({
  id: r.id,
  itemId: r.item_id,
  userId: r.user_id,
  rating: Number(r.rating),
  title: r.title,
  comment: r.comment,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** Recounts an item's aggregates from its reviews, in the caller's transaction (which holds the item's row lock). */
const RECOUNT = `
  UPDATE marketplace_items i
     SET rating_count = s.n, rating_sum = s.total, rating_1 = s.r1, rating_2 = s.r2, rating_3 = s.r3, rating_4 = s.r4, rating_5 = s.r5
    FROM (SELECT count(*)::int AS n, COALESCE(sum(rating), 0)::int AS total,
                 (count(*) FILTER (WHERE rating = 1))::int AS r1, (count(*) FILTER (WHERE rating = 2))::int AS r2,
                 (count(*) FILTER (WHERE rating = 3))::int AS r3, (count(*) FILTER (WHERE rating = 4))::int AS r4,
                 (count(*) FILTER (WHERE rating = 5))::int AS r5
            FROM marketplace_reviews WHERE item_id = $1) s
   WHERE i.id = $1`;

export class TypeOrmReviewRepository implements ReviewRepository {
  constructor(private readonly db: DataSource) {}

  upsert(itemId: string, userId: string, rating: number, title: string, comment: string): Promise<Review> {
    return this.db.transaction(async (tx) => {
      // The item's row lock orders concurrent reviews of one item: each recount sees every review committed before it.
      const locked = await one<{ id: string }>(tx, `SELECT id FROM marketplace_items WHERE id = $1 FOR UPDATE`, [itemId]);
      if (!locked) throw new NotFoundError('Item');
      const row = await one<ReviewRow>(
        tx,
        `INSERT INTO marketplace_reviews (item_id, user_id, rating, title, comment) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (item_id, user_id) DO UPDATE SET rating = EXCLUDED.rating, title = EXCLUDED.title, comment = EXCLUDED.comment, updated_at = now()
         RETURNING *`,
        [itemId, userId, rating, title, comment],
      );
      await tx.query(RECOUNT, [itemId]);
      return toReview(row!);
    });
  }

  delete(itemId: string, userId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT id FROM marketplace_items WHERE id = $1 FOR UPDATE`, [itemId]);
      const gone = await rows<{ id: string }>(tx, `DELETE FROM marketplace_reviews WHERE item_id = $1 AND user_id = $2 RETURNING id`, [itemId, userId]);
      if (!gone.length) return false;
      await tx.query(RECOUNT, [itemId]);
      return true;
    });
  }

  async list(itemId: string, offset: number, limit: number): Promise<Review[]> {
    const list = await rows<ReviewRow>(this.db, `SELECT * FROM marketplace_reviews WHERE item_id = $1 ORDER BY updated_at DESC, id LIMIT $2 OFFSET $3`, [itemId, limit, offset]);
    return list.map(toReview);
  }
}

interface LicenseRow {
  id: string;
  item_id: string;
  user_id: string;
  key_hint: string;
  status: 'active' | 'revoked';
  expires_at: Date | null;
  issued_by: string;
  created_at: Date;
}

const LICENSE_COLUMNS = 'id, item_id, user_id, key_hint, status, expires_at, issued_by, created_at';

const toLicense = (r: LicenseRow): License => ({
  id: r.id,
  itemId: r.item_id,
  userId: r.user_id,
  keyHint: r.key_hint,
  status: r.status,
  expiresAt: date(r.expires_at),
  issuedBy: r.issued_by,
  createdAt: new Date(r.created_at),
});

export class TypeOrmLicenseRepository implements LicenseRepository {
  constructor(private readonly db: DataSource) {}

  async issue(l: { itemId: string; userId: string; keyHash: string; keyHint: string; expiresAt: Date | null; issuedBy: string }): Promise<License> {
    const row = await one<LicenseRow>(
      this.db,
      `INSERT INTO marketplace_licenses (item_id, user_id, key_hash, key_hint, expires_at, issued_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (item_id, user_id) DO UPDATE SET key_hash = EXCLUDED.key_hash, key_hint = EXCLUDED.key_hint, status = 'active',
         expires_at = EXCLUDED.expires_at, issued_by = EXCLUDED.issued_by, created_at = now()
       RETURNING ${LICENSE_COLUMNS}`,
      [l.itemId, l.userId, l.keyHash, l.keyHint, l.expiresAt, l.issuedBy],
    );
    return toLicense(row!);
  }

  async find(itemId: string, userId: string): Promise<License | null> {
    const row = await one<LicenseRow>(this.db, `SELECT ${LICENSE_COLUMNS} FROM marketplace_licenses WHERE item_id = $1 AND user_id = $2`, [itemId, userId]);
    return row && toLicense(row);
  }

  async list(itemId: string): Promise<License[]> {
    const list = await rows<LicenseRow>(this.db, `SELECT ${LICENSE_COLUMNS} FROM marketplace_licenses WHERE item_id = $1 ORDER BY created_at DESC, id LIMIT 1000`, [itemId]);
    return list.map(toLicense);
  }

  async listHeld(userId: string, offset: number, limit: number): Promise<{ held: HeldLicense[]; total: number }> {
    const page = await rows<LicenseRow & { total: string | number }>(
      this.db,
      `SELECT ${LICENSE_COLUMNS}, count(*) OVER () AS total FROM marketplace_licenses WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
    // Past the last page the window count is absent: count apart so the total stays right.
    const total = page.length ? Number(page[0]!.total) : Number((await one<{ n: string }>(this.db, `SELECT count(*) AS n FROM marketplace_licenses WHERE user_id = $1`, [userId]))!.n);
    if (!page.length) return { held: [], total };
    const items = await rows<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM marketplace_items WHERE id = ANY($1::uuid[])`, [[...new Set(page.map((r) => r.item_id))]]);
    const byId = new Map(items.map((r) => [r.id, toItem(r)]));
    return { held: page.flatMap((r) => (byId.has(r.item_id) ? [{ license: toLicense(r), item: byId.get(r.item_id)! }] : [])), total };
  }

  async revoke(itemId: string, userId: string): Promise<License | null> {
    const row = await one<LicenseRow>(
      this.db,
      `UPDATE marketplace_licenses SET status = 'revoked' WHERE item_id = $1 AND user_id = $2 RETURNING ${LICENSE_COLUMNS}`,
      [itemId, userId],
    );
    return row && toLicense(row);
  }
}
