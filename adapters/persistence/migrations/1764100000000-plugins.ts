import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plugins (EXTENSIONS.md): packages owned by a user, their installations per application with state and
 * counters, each installation's key-value store (JSONB, with a GIN index for `find`'s equality filters)
 * and its run log. An installation's KV data and runs go with it.
 */
export class Plugins1764100000000 implements MigrationInterface {
  name = 'Plugins1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE plugins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        version text NOT NULL,
        manifest jsonb NOT NULL,
        source text NOT NULL,
        published boolean NOT NULL DEFAULT false,
        published_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT plugins_owner_name_key UNIQUE (owner_id, name)
      )`);
    await q.query(`CREATE INDEX plugins_published_idx ON plugins (created_at DESC) WHERE published`);
    await q.query(`
      CREATE TABLE plugin_installations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        plugin_id uuid NOT NULL REFERENCES plugins(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        state text NOT NULL CHECK (state IN ('installed', 'activated', 'deactivated')),
        version text NOT NULL,
        settings jsonb NOT NULL DEFAULT '{}',
        sealed_secrets jsonb NOT NULL DEFAULT '{}',
        call_count bigint NOT NULL DEFAULT 0,
        failure_count bigint NOT NULL DEFAULT 0,
        consecutive_failures integer NOT NULL DEFAULT 0,
        last_error text,
        last_error_at timestamptz,
        deactivation_reason text,
        installed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT plugin_installations_application_plugin_key UNIQUE (application_id, plugin_id)
      )`);
    await q.query(`CREATE INDEX plugin_installations_active_idx ON plugin_installations (application_id, installed_at) WHERE state = 'activated'`);
    await q.query(`CREATE INDEX plugin_installations_plugin_idx ON plugin_installations (plugin_id)`);
    await q.query(`
      CREATE TABLE plugin_kv (
        installation_id uuid NOT NULL REFERENCES plugin_installations(id) ON DELETE CASCADE,
        key text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 256),
        value jsonb NOT NULL,
        expires_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (installation_id, key)
      )`);
    // find({ where }) is a containment test (value @> where), answered from this index.
    await q.query(`CREATE INDEX plugin_kv_value_idx ON plugin_kv USING gin (value jsonb_path_ops)`);
    await q.query(`CREATE INDEX plugin_kv_expiry_idx ON plugin_kv (expires_at) WHERE expires_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE plugin_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        installation_id uuid NOT NULL REFERENCES plugin_installations(id) ON DELETE CASCADE,
        kind text NOT NULL,
        name text NOT NULL,
        ok boolean NOT NULL,
        error text,
        duration_ms integer NOT NULL,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX plugin_runs_installation_idx ON plugin_runs (installation_id, at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE plugin_runs`);
    await q.query(`DROP TABLE plugin_kv`);
    await q.query(`DROP TABLE plugin_installations`);
    await q.query(`DROP TABLE plugins`);
  }
}
