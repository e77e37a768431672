import type { DataSource } from 'typeorm';
import type { Experiment, ExperimentStatus, Goal, Guardrail, RolledBackArm } from '../../../core/experiments/domain/experiment';
import type { ExperimentRepository, ExperimentSettings, Promotion } from '../../../core/experiments/ports/experiment-repository.port';
import type { Cache } from '../../../core/shared/cache.port';
import { ambientTransaction, affected, one, rows } from '../sql';

interface Row {
  id: string;
  config_id: string;
  application_id: string;
  goal: Goal;
  evaluator_id: string | null;
  sample_rate: number;
  samples_per_hour: number;
  minimum_effect: number;
  significance: number;
  auto_promote: boolean;
  guardrails: Guardrail[];
  status: ExperimentStatus;
  started_at: Date;
  winner_arm: string | null;
  decided_at: Date | null;
  promoted_at: Date | null;
  rolled_back: RolledBackArm[];
  created_at: Date;
  updated_at: Date;
}

const date = (d: Date | string | null): Date | null => (d === null ? null : new Date(d));

const toExperiment = (r: Row): Experiment => ({
  id: r.id,
  configId: r.config_id,
  applicationId: r.application_id,
  goal: r.goal,
  evaluatorId: r.evaluator_id,
  sampleRate: Number(r.sample_rate),
  samplesPerHour: Number(r.samples_per_hour),
  minimumEffect: Number(r.minimum_effect),
  significance: Number(r.significance),
  autoPromote: r.auto_promote,
  guardrails: r.guardrails,
  status: r.status,
  startedAt: new Date(r.started_at),
  winnerArm: r.winner_arm,
  decidedAt: date(r.decided_at),
  promotedAt: date(r.promoted_at),
  rolledBack: r.rolled_back,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/**
 * A/B tests in `experiments`. Promotions and rollbacks also write the config and its versions (in the
 * caller's unit of work), so the cached default config and A/B shares are forgotten now and again after
 * the commit (a read in between would cache the old ones).
 */
export class TypeOrmExperimentRepository implements ExperimentRepository {
  constructor(private readonly db: DataSource, private readonly cache?: Cache) {}

  async findByConfig(configId: string): Promise<Experiment | null> {
    const row = await one<Row>(this.db, `SELECT * FROM experiments WHERE config_id = $1`, [configId]);
    return row && toExperiment(row);
  }

  /**
   * Asked after every answer (the experiments subscriber), and most applications have no A/B test: that there
   * is none is cached per application (region `xp`), so such a turn costs no statement. Only `save` can open a
   * test (create it, or restart it), and it forgets the application's entry; a test that closes leaves "some"
   * cached, which only costs the lookup it did before, until the entry expires.
   */
  async listOpenByApplication(applicationId: string): Promise<Experiment[]> {
    if (this.cache) {
      const any = await this.cache.getOrLoad(`xp:${applicationId}`, async () =>
        (await one<{ any: boolean }>(this.db, `SELECT EXISTS (SELECT 1 FROM experiments WHERE application_id = $1 AND status IN ('running', 'winner')) AS any`, [applicationId]))?.any === true,
      );
      if (!any) return [];
    }
    const found = await rows<Row>(this.db, `SELECT * FROM experiments WHERE application_id = $1 AND status IN ('running', 'winner') ORDER BY created_at`, [applicationId]);
    return found.map(toExperiment);
  }

  async applicationsWithOpenTests(limit: number): Promise<string[]> {
    const found = await rows<{ application_id: string }>(
      this.db,
      `SELECT DISTINCT application_id FROM experiments WHERE status = 'running' OR (status = 'winner' AND auto_promote) LIMIT $1`,
      [limit],
    );
    return found.map((r) => r.application_id);
  }

  async save(configId: string, applicationId: string, s: ExperimentSettings, restart: boolean, now: Date): Promise<Experiment> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO experiments (config_id, application_id, goal, evaluator_id, minimum_effect, significance, auto_promote, guardrails, started_at, sample_rate, samples_per_hour)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $11, $12)
       ON CONFLICT (config_id) DO UPDATE SET
         goal = EXCLUDED.goal, evaluator_id = EXCLUDED.evaluator_id, sample_rate = EXCLUDED.sample_rate, samples_per_hour = EXCLUDED.samples_per_hour, minimum_effect = EXCLUDED.minimum_effect,
         significance = EXCLUDED.significance, auto_promote = EXCLUDED.auto_promote, guardrails = EXCLUDED.guardrails,
         status = CASE WHEN $10 THEN 'running' ELSE experiments.status END,
         started_at = CASE WHEN $10 THEN EXCLUDED.started_at ELSE experiments.started_at END,
         winner_arm = CASE WHEN $10 THEN NULL ELSE experiments.winner_arm END,
         decided_at = CASE WHEN $10 THEN NULL ELSE experiments.decided_at END,
         promoted_at = CASE WHEN $10 THEN NULL ELSE experiments.promoted_at END,
         rolled_back = CASE WHEN $10 THEN '[]'::jsonb ELSE experiments.rolled_back END,
         updated_at = clock_timestamp()
       RETURNING *`,
      [configId, applicationId, s.goal, s.evaluatorId, s.minimumEffect, s.significance, s.autoPromote, JSON.stringify(s.guardrails), now, restart, s.sampleRate, s.samplesPerHour],
    );
    await this.forgetOpen(applicationId);
    return toExperiment(row!);
  }

  async recordDecision(id: string, decision: { status: 'winner' | 'no_difference'; winnerArm: string | null }, now: Date): Promise<boolean> {
    const n = await affected(
      this.db,
      `UPDATE experiments SET status = $2, winner_arm = $3, decided_at = $4, updated_at = clock_timestamp() WHERE id = $1 AND status = 'running'`,
      [id, decision.status, decision.winnerArm, now],
    );
    return n > 0;
  }

  async promote(id: string, promotion: Promotion, now: Date): Promise<boolean> {
    const row = await one<{ config_id: string }>(
      this.db,
      `UPDATE experiments SET status = 'promoted', promoted_at = $2, updated_at = clock_timestamp() WHERE id = $1 AND status = 'winner' RETURNING config_id`,
      [id, now],
    );
    if (!row) return false;
    if (promotion.winner) {
      await affected(
        this.db,
        `UPDATE model_configs SET provider = $2, model_id = $3, settings = $4::jsonb, updated_at = clock_timestamp() WHERE id = $1`,
        [row.config_id, promotion.winner.provider, promotion.winner.modelId, JSON.stringify(promotion.winner.settings)],
      );
    }
    await affected(this.db, `UPDATE model_config_versions SET is_active = false, updated_at = clock_timestamp() WHERE config_id = $1 AND is_active`, [row.config_id]);
    await this.forgetConfigs();
    return true;
  }

  async rollBack(id: string, arm: RolledBackArm): Promise<boolean> {
    const switched = await affected(
      this.db,
      `UPDATE model_config_versions v SET is_active = false, updated_at = clock_timestamp()
         FROM experiments e WHERE e.id = $1 AND v.id = $2 AND v.config_id = e.config_id AND v.is_active`,
      [id, arm.versionId],
    );
    if (switched === 0) return false;
    await affected(this.db, `UPDATE experiments SET rolled_back = rolled_back || $2::jsonb, updated_at = clock_timestamp() WHERE id = $1`, [id, JSON.stringify([arm])]);
    await this.forgetConfigs();
    return true;
  }

  /** The application may have an open test now: forgotten at once and again after the commit (a read in between would cache "none"). */
  private async forgetOpen(applicationId: string): Promise<void> {
    const cache = this.cache;
    if (!cache) return;
    const key = `xp:${applicationId}`;
    await cache.invalidate(key);
    ambientTransaction.getStore()?.afterCommit.push(() => void cache.invalidate(key).catch(() => undefined));
  }

  private async forgetConfigs(): Promise<void> {
    const cache = this.cache;
    if (!cache) return;
    for (const region of ['mc', 'mcv']) await cache.invalidateRegion(region);
    ambientTransaction.getStore()?.afterCommit.push(() => void Promise.all(['mc', 'mcv'].map((r) => cache.invalidateRegion(r))).catch(() => undefined));
  }
}
