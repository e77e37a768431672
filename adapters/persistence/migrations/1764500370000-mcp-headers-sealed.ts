import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MCP server header values are sealed, every one (a token pasted straight into a header is a credential too):
 * `headers_sealed` holds name → value sealed with the platform key, bound to the server and the header's name.
 * A migration cannot seal (it has no key), so plain header values stored before are dropped rather than kept in
 * clear: such a server answers its `headerNames` as empty, and its owner sets the headers again.
 */
export class McpHeadersSealed1764500370000 implements MigrationInterface {
  name = 'McpHeadersSealed1764500370000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE mcp_servers ADD COLUMN headers_sealed jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE mcp_servers DROP COLUMN headers`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE mcp_servers ADD COLUMN headers jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE mcp_servers DROP COLUMN headers_sealed`);
  }
}
