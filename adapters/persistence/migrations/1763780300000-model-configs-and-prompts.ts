import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Model configs with their A/B versions and metrics, and prompt templates. At most one default config
 * and one default template per application, enforced by partial unique indexes.
 */
export class ModelConfigsAndPrompts1763780300000 implements MigrationInterface {
  name = 'ModelConfigsAndPrompts1763780300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE model_configs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        provider text NOT NULL,
        model_id text NOT NULL,
        settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (id, application_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX model_configs_one_default_key ON model_configs (application_id) WHERE is_default`);
    await q.query(`CREATE INDEX model_configs_application_idx ON model_configs (application_id, created_at)`);
    await q.query(`
      CREATE TABLE model_config_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        config_id uuid NOT NULL,
        application_id uuid NOT NULL,
        version text NOT NULL,
        label text NOT NULL,
        provider text NOT NULL,
        model_id text NOT NULL,
        settings jsonb NOT NULL DEFAULT '{}'::jsonb,
        traffic_share integer NOT NULL DEFAULT 0 CHECK (traffic_share BETWEEN 0 AND 10000),
        is_active boolean NOT NULL DEFAULT true,
        request_count integer NOT NULL DEFAULT 0,
        error_count integer NOT NULL DEFAULT 0 CHECK (error_count <= request_count),
        avg_latency_ms double precision NOT NULL DEFAULT 0,
        avg_tokens_used double precision NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (config_id, application_id) REFERENCES model_configs (id, application_id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX model_config_versions_label_key ON model_config_versions (config_id, lower(label))`);
    await q.query(`CREATE INDEX model_config_versions_application_idx ON model_config_versions (application_id)`);
    await q.query(`
      CREATE TABLE prompt_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        content text NOT NULL,
        variables jsonb NOT NULL DEFAULT '[]'::jsonb,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE UNIQUE INDEX prompt_templates_one_default_key ON prompt_templates (application_id) WHERE is_default`);
    await q.query(`CREATE INDEX prompt_templates_application_idx ON prompt_templates (application_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE prompt_templates`);
    await q.query(`DROP TABLE model_config_versions`);
    await q.query(`DROP TABLE model_configs`);
  }
}
