import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments: each user's customer at the payment processor and the state of their paid subscription,
 * the processor's webhook event ids (each applied once: the id is stored in the transaction that applies
 * the event, so a second delivery, to this instance or another, finds it and changes nothing), and how
 * much of each billing period's overage has been reported as metered usage. All of it goes with the user.
 */
export class StripeBilling1764400200000 implements MigrationInterface {
  name = 'StripeBilling1764400200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing_customers (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        customer_id text NOT NULL UNIQUE,
        subscription_id text,
        state_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE billing_webhook_events (
        event_id text PRIMARY KEY,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE billing_overage_reports (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        period_start timestamptz NOT NULL,
        reported_tokens bigint NOT NULL CHECK (reported_tokens >= 0),
        reported_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_overage_reports`);
    await q.query(`DROP TABLE billing_webhook_events`);
    await q.query(`DROP TABLE billing_customers`);
  }
}
