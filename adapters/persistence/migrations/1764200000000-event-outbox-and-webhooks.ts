import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Domain events and webhooks (EVENTS.md): the outbox written in the same transaction as each change,
 * the webhooks with their sealed signing secrets and counters, one delivery per webhook and event (its
 * exact body, so every retry sends the same bytes) and the log of its attempts.
 */
export class EventOutboxAndWebhooks1764200000000 implements MigrationInterface {
  name = 'EventOutboxAndWebhooks1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_outbox (
        seq bigserial PRIMARY KEY,
        event_id text NOT NULL UNIQUE,
        type text NOT NULL,
        owner_id uuid NOT NULL,
        application_id uuid,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        dedupe_key text,
        dispatched_at timestamptz,
        claimed_until timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    await q.query(`CREATE UNIQUE INDEX event_outbox_dedupe_key ON event_outbox (dedupe_key) WHERE dedupe_key IS NOT NULL`);
    // The dispatcher reads only what is left to hand over.
    await q.query(`CREATE INDEX event_outbox_pending_idx ON event_outbox (seq) WHERE dispatched_at IS NULL`);
    await q.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        application_id uuid REFERENCES applications(id) ON DELETE CASCADE,
        url text NOT NULL,
        events text[] NOT NULL,
        description text NOT NULL DEFAULT '',
        secret_sealed text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        total_deliveries integer NOT NULL DEFAULT 0,
        failed_deliveries integer NOT NULL DEFAULT 0,
        consecutive_failures integer NOT NULL DEFAULT 0,
        failing_since timestamptz,
        last_error text,
        last_delivery_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhooks_owner_idx ON webhooks (owner_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id text NOT NULL,
        event_type text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (webhook_id, event_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending')`);
    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('succeeded', 'failed', 'timeout', 'refused')),
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        next_retry_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_delivery_attempts_log_idx ON webhook_delivery_attempts (webhook_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhooks`);
    await q.query(`DROP TABLE event_outbox`);
  }
}
