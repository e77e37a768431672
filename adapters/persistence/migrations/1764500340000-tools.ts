import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tools an application's model may call (docs/tools.md) and each application's agent settings. Tool
 * secrets (http header values) are sealed per tool and name; names are unique per application.
 */
export class Tools1764500340000 implements MigrationInterface {
  name = 'Tools1764500340000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tools (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL,
        parameters jsonb NOT NULL,
        source jsonb NOT NULL,
        timeout_ms integer NOT NULL,
        secrets_sealed jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tools_application_name UNIQUE (application_id, name)
      )`);
    await q.query(`
      CREATE TABLE application_agent_settings (
        application_id uuid PRIMARY KEY REFERENCES applications(id) ON DELETE CASCADE,
        enabled_tools text[] NOT NULL DEFAULT '{}',
        tool_choice jsonb NOT NULL DEFAULT '"auto"'::jsonb,
        max_tool_rounds integer NOT NULL DEFAULT 5 CHECK (max_tool_rounds BETWEEN 1 AND 20),
        time_budget_ms integer NOT NULL DEFAULT 60000,
        parallel_calls boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE application_agent_settings`);
    await q.query(`DROP TABLE tools`);
  }
}
