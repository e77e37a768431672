import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages of a turn with tools (docs/tools.md): an assistant message may carry the calls its model made
 * (`tool_calls`, `[{ id, name, arguments }]`), and each call's result is a message of role `tool` naming
 * the call (`tool_call_id`), the tool (`tool_name`) and whether it is an error (`is_error`).
 */
export class ToolMessages1764500470000 implements MigrationInterface {
  name = 'ToolMessages1764500470000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_role_check`);
    await q.query(`ALTER TABLE messages ADD CONSTRAINT messages_role_check CHECK (role IN ('user', 'assistant', 'tool'))`);
    await q.query(`
      ALTER TABLE messages
        ADD COLUMN tool_calls jsonb,
        ADD COLUMN tool_call_id text,
        ADD COLUMN tool_name text,
        ADD COLUMN is_error boolean`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM messages WHERE role = 'tool'`);
    await q.query(`ALTER TABLE messages DROP COLUMN tool_calls, DROP COLUMN tool_call_id, DROP COLUMN tool_name, DROP COLUMN is_error`);
    await q.query(`ALTER TABLE messages DROP CONSTRAINT messages_role_check`);
    await q.query(`ALTER TABLE messages ADD CONSTRAINT messages_role_check CHECK (role IN ('user', 'assistant'))`);
  }
}
