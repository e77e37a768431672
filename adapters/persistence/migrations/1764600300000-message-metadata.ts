import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How an answer was answered (docs/connections.md, "Resilience"): which provider and model answered,
 * whether it was a fallback, every provider attempt of the turn, and whether its usage is an estimate.
 */
export class MessageMetadata1764600300000 implements MigrationInterface {
  name = 'MessageMetadata1764600300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN metadata jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages DROP COLUMN metadata`);
  }
}
