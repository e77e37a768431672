import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Remote MCP servers an application's owner connects as tool sources (docs/tools.md): the address, header
 * templates with sealed secrets (per server and name), and the cached tool list. Names are unique per application.
 */
export class McpServers1764500360000 implements MigrationInterface {
  name = 'McpServers1764500360000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mcp_servers (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        url text NOT NULL,
        transport text NOT NULL DEFAULT 'auto',
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        secrets_sealed jsonb NOT NULL DEFAULT '{}'::jsonb,
        timeout_ms integer NOT NULL,
        tools jsonb NOT NULL DEFAULT '[]'::jsonb,
        connected_with text,
        tools_refreshed_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT mcp_servers_application_name UNIQUE (application_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mcp_servers`);
  }
}
