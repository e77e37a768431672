import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * In-app notifications (SPEC 2.11, 6.5) with a partial index the unread count answers from, and the
 * append-only audit log (SPEC 4.12): a trigger refuses every UPDATE and DELETE of its rows.
 */
export class NotificationsAndAudit1764200100000 implements MigrationInterface {
  name = 'NotificationsAndAudit1764200100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('info', 'success', 'warning', 'error')),
        category text NOT NULL,
        title text NOT NULL,
        body text NOT NULL DEFAULT '',
        action_url text,
        source_key text,
        read_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, seq DESC)`);
    // unread-count is polled every 30 s by every open dashboard: it counts this index's entries only.
    await q.query(`CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL`);
    // One notification per user and cause (an event handed over twice notifies once).
    await q.query(`CREATE UNIQUE INDEX notifications_source_key ON notifications (user_id, source_key) WHERE source_key IS NOT NULL`);
    await q.query(`CREATE INDEX notifications_prune_idx ON notifications (read_at) WHERE read_at IS NOT NULL`);

    await q.query(`
      CREATE TABLE audit_records (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid,
        actor_role text,
        action text NOT NULL,
        resource_type text NOT NULL,
        resource_id text,
        team_id uuid,
        ip text,
        user_agent text,
        outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
        details jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await q.query(`CREATE INDEX audit_records_at_idx ON audit_records (at DESC, seq DESC)`);
    await q.query(`CREATE INDEX audit_records_actor_idx ON audit_records (actor_id, at DESC, seq DESC)`);
    await q.query(`CREATE INDEX audit_records_team_idx ON audit_records (team_id, at DESC) WHERE team_id IS NOT NULL`);
    await q.query(`
      CREATE FUNCTION audit_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit records are append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_records_append_only BEFORE UPDATE OR DELETE ON audit_records
        FOR EACH ROW EXECUTE FUNCTION audit_records_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_records`);
    await q.query(`DROP FUNCTION audit_records_append_only()`);
    await q.query(`DROP TABLE notifications`);
  }
}
