import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The A/B control arm's metrics: the share of traffic a config keeps for itself is compared with its
 * versions, so it counts the same figures as a version does (model_config_versions' counters).
 */
export class ModelConfigControlMetrics1763830000000 implements MigrationInterface {
  name = 'ModelConfigControlMetrics1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE model_configs
        ADD COLUMN control_request_count integer NOT NULL DEFAULT 0,
        ADD COLUMN control_error_count integer NOT NULL DEFAULT 0,
        ADD COLUMN control_avg_latency_ms double precision NOT NULL DEFAULT 0,
        ADD COLUMN control_avg_tokens_used double precision NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE model_configs
        DROP COLUMN control_request_count,
        DROP COLUMN control_error_count,
        DROP COLUMN control_avg_latency_ms,
        DROP COLUMN control_avg_tokens_used`);
  }
}
