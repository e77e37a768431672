import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The marketplace service's catalog: plugins and themes (one table, `kind` tells them apart), their versions with
 * the stored package, reviews with the rating aggregates kept on the item, and licenses of paid items. Names and
 * descriptions are searched through a generated tsvector with a GIN index ('simple' configuration: no stemming,
 * the same on PostgreSQL and PGlite). User ids are the core API's; the marketplace keeps no foreign key to them.
 */
export class Marketplace1764400000000 implements MigrationInterface {
  name = 'Marketplace1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE marketplace_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL CHECK (kind IN ('plugin', 'theme')),
        name text NOT NULL,
        slug text NOT NULL,
        display_name text NOT NULL,
        description text NOT NULL DEFAULT '',
        category text NOT NULL,
        author_id uuid NOT NULL,
        author_name text NOT NULL DEFAULT '',
        author_url text,
        homepage text,
        repository_url text,
        icon_url text,
        preview_url text,
        screenshots jsonb NOT NULL DEFAULT '[]'::jsonb,
        is_paid boolean NOT NULL DEFAULT false,
        price numeric(10, 2),
        manifest jsonb NOT NULL DEFAULT '{}'::jsonb,
        default_styles jsonb,
        version text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
        rejection_reason text,
        reviewed_by uuid,
        reviewed_at timestamptz,
        featured boolean NOT NULL DEFAULT false,
        download_count integer NOT NULL DEFAULT 0,
        rating_count integer NOT NULL DEFAULT 0,
        rating_sum integer NOT NULL DEFAULT 0,
        rating_1 integer NOT NULL DEFAULT 0,
        rating_2 integer NOT NULL DEFAULT 0,
        rating_3 integer NOT NULL DEFAULT 0,
        rating_4 integer NOT NULL DEFAULT 0,
        rating_5 integer NOT NULL DEFAULT 0,
        search tsvector GENERATED ALWAYS AS (
          to_tsvector('simple'::regconfig, name || ' ' || display_name || ' ' || description)
        ) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        CONSTRAINT marketplace_items_kind_slug_key UNIQUE (kind, slug),
        CONSTRAINT marketplace_items_kind_name_key UNIQUE (kind, name)
      )`);
    await q.query(`CREATE INDEX marketplace_items_search_idx ON marketplace_items USING gin (search)`);
    await q.query(`CREATE INDEX marketplace_items_listed_idx ON marketplace_items (kind, category) WHERE status = 'published'`);
    await q.query(`CREATE INDEX marketplace_items_pending_idx ON marketplace_items (kind, created_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX marketplace_items_author_idx ON marketplace_items (author_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE marketplace_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        item_id uuid NOT NULL REFERENCES marketplace_items(id) ON DELETE CASCADE,
        version text NOT NULL,
        changelog text NOT NULL DEFAULT '',
        min_platform_version text,
        max_platform_version text,
        external_url text,
        package bytea,
        file_size integer,
        checksum text,
        published_by uuid NOT NULL,
        released_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT marketplace_versions_item_version_key UNIQUE (item_id, version)
      )`);
    await q.query(`
      CREATE TABLE marketplace_reviews (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        item_id uuid NOT NULL REFERENCES marketplace_items(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
        title text NOT NULL DEFAULT '',
        comment text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT marketplace_reviews_item_user_key UNIQUE (item_id, user_id)
      )`);
    await q.query(`CREATE INDEX marketplace_reviews_recent_idx ON marketplace_reviews (item_id, updated_at DESC)`);
    await q.query(`
      CREATE TABLE marketplace_licenses (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        item_id uuid NOT NULL REFERENCES marketplace_items(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        key_hash text NOT NULL UNIQUE,
        key_hint text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        expires_at timestamptz,
        issued_by uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT marketplace_licenses_item_user_key UNIQUE (item_id, user_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE marketplace_licenses`);
    await q.query(`DROP TABLE marketplace_reviews`);
    await q.query(`DROP TABLE marketplace_versions`);
    await q.query(`DROP TABLE marketplace_items`);
  }
}
