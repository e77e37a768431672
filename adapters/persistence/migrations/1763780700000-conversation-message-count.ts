import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many messages each conversation has. Every statement that stores messages raises it under the
 * conversation's row lock, so it names the state of a conversation's history: a process that holds the
 * history of a given count need not read it again (the history cache of the conversation repository).
 */
export class ConversationMessageCount1763780700000 implements MigrationInterface {
  name = 'ConversationMessageCount1763780700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations ADD COLUMN message_count integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE conversations c SET message_count = m.n
        FROM (SELECT conversation_id, count(*)::int AS n FROM messages GROUP BY conversation_id) m
       WHERE m.conversation_id = c.id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE conversations DROP COLUMN message_count`);
  }
}
