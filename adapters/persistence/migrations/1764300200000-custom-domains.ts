import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom domains (one application per domain, across all users) and the claims that let a periodic
 * job run once per period across instances.
 */
export class CustomDomains1764300200000 implements MigrationInterface {
  name = 'CustomDomains1764300200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE custom_domains (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        domain text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'failed', 'active')),
        verification_token text NOT NULL,
        failure_reason text,
        settings jsonb NOT NULL DEFAULT '{"redirectWww": false, "forceHttps": false, "customHeaders": {}}'::jsonb,
        verified_at timestamptz,
        last_checked_at timestamptz,
        activated_at timestamptz,
        ssl_expires_at timestamptz,
        ssl_checked_at timestamptz,
        ssl_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX custom_domains_domain_key ON custom_domains (domain)`);
    await q.query(`CREATE INDEX custom_domains_owner_idx ON custom_domains (owner_id, created_at DESC)`);
    await q.query(`CREATE INDEX custom_domains_active_idx ON custom_domains (domain) WHERE status = 'active'`);
    await q.query(`
      CREATE TABLE scheduled_runs (
        job text NOT NULL,
        period text NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (job, period)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE scheduled_runs`);
    await q.query(`DROP TABLE custom_domains`);
  }
}
