import type { DataSource } from 'typeorm';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ModelSettings } from '../../../core/ai/ports/llm-provider.port';
import type { AnswerOutcome, ConfigVersion } from '../../../core/model-configs/domain/config-version';
import { MAX_VERSIONS_PER_CONFIG } from '../../../core/model-configs/domain/model-config';
import { assertTrafficFits, redistribute, type TrafficShare } from '../../../core/model-configs/domain/traffic';
import type { ConfigVersionChanges, ConfigVersionRepository, NewConfigVersion } from '../../../core/model-configs/ports/config-version-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import { one, rows, uniquely, type Sql } from '../sql';
import { recordOutcomeParams, recordOutcomeStatement } from './answer-outcome.sql';

const VERSION_OUTCOME = recordOutcomeStatement('model_config_versions', '');

interface Row {
  id: string;
  config_id: string;
  application_id: string;
  version: string;
  label: string;
  provider: ProviderId;
  model_id: string;
  settings: ModelSettings;
  traffic_share: number;
  is_active: boolean;
  request_count: number;
  error_count: number;
  avg_latency_ms: number;
  avg_tokens_used: number;
  created_at: Date;
  updated_at: Date;
}

const toVersion = (r: Row): ConfigVersion => ({
  id: r.id,
  configId: r.config_id,
  applicationId: r.application_id,
  version: r.version,
  label: r.label,
  provider: r.provider,
  modelId: r.model_id,
  settings: r.settings,
  trafficShare: r.traffic_share,
  isActive: r.is_active,
  counters: {
    requestCount: r.request_count,
    errorCount: r.error_count,
    avgLatencyMs: Number(r.avg_latency_ms),
    avgTokensUsed: Number(r.avg_tokens_used),
  },
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS: Record<keyof ConfigVersionChanges, { column: string; json?: boolean }> = {
  version: { column: 'version' },
  label: { column: 'label' },
  provider: { column: 'provider' },
  modelId: { column: 'model_id' },
  settings: { column: 'settings', json: true },
  trafficShare: { column: 'traffic_share' },
  isActive: { column: 'is_active' },
};

const labelTaken = () => 'Another version of this config already has this label';

/** Traffic rules read the config's versions under the config's row lock, so concurrent writes queue. */
async function lockConfig(db: Sql, configId: string): Promise<void> {
  const locked = await one(db, `SELECT id FROM model_configs WHERE id = $1 FOR NO KEY UPDATE`, [configId]);
  if (!locked) throw new NotFoundError('Model config');
}

const activeSharesExcept = async (db: Sql, configId: string, exceptId: string | null): Promise<TrafficShare[]> =>
  (
    await rows<{ id: string; traffic_share: number }>(
      db,
      `SELECT id, traffic_share FROM model_config_versions WHERE config_id = $1 AND is_active AND id IS DISTINCT FROM $2::uuid ORDER BY created_at, id`,
      [configId, exceptId],
    )
  ).map((r) => ({ id: r.id, share: r.traffic_share }));

export class TypeOrmConfigVersionRepository implements ConfigVersionRepository {
  constructor(private readonly db: DataSource) {}

  create(v: NewConfigVersion): Promise<ConfigVersion> {
    return this.db.transaction(async (tx) => {
      await lockConfig(tx, v.configId);
      const held = (await one<{ n: number }>(tx, `SELECT count(*)::int AS n FROM model_config_versions WHERE config_id = $1`, [v.configId]))?.n ?? 0;
      if (held >= MAX_VERSIONS_PER_CONFIG) throw new ConflictError(`A model config holds at most ${MAX_VERSIONS_PER_CONFIG} versions`);
      if (v.isActive) assertTrafficFits((await activeSharesExcept(tx, v.configId, null)).map((s) => s.share), v.trafficShare);
      const row = await uniquely(
        () =>
          one<Row>(
            tx,
            `INSERT INTO model_config_versions (config_id, application_id, version, label, provider, model_id, settings, traffic_share, is_active)
             VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) RETURNING *`,
            [v.configId, v.applicationId, v.version ?? `v${held + 1}`, v.label, v.provider, v.modelId, JSON.stringify(v.settings), v.trafficShare, v.isActive],
          ),
        labelTaken,
      );
      return toVersion(row!);
    });
  }

  async findById(id: string): Promise<ConfigVersion | null> {
    const row = await one<Row>(this.db, `SELECT * FROM model_config_versions WHERE id = $1`, [id]);
    return row && toVersion(row);
  }

  async listByConfig(configId: string): Promise<ConfigVersion[]> {
    return (await rows<Row>(this.db, `SELECT * FROM model_config_versions WHERE config_id = $1 ORDER BY created_at, id`, [configId])).map(toVersion);
  }

  update(id: string, changes: ConfigVersionChanges): Promise<ConfigVersion> {
    return this.db.transaction(async (tx) => {
      const target = await one<{ config_id: string }>(tx, `SELECT config_id FROM model_config_versions WHERE id = $1`, [id]);
      if (!target) throw new NotFoundError('Model config version');
      await lockConfig(tx, target.config_id);
      const current = await one<Row>(tx, `SELECT * FROM model_config_versions WHERE id = $1`, [id]);
      if (!current) throw new NotFoundError('Model config version');
      const active = changes.isActive ?? current.is_active;
      const share = changes.trafficShare ?? current.traffic_share;
      if (active) assertTrafficFits((await activeSharesExcept(tx, target.config_id, id)).map((s) => s.share), share);
      const entries = (Object.entries(changes) as [keyof ConfigVersionChanges, unknown][]).filter(([k, v]) => v !== undefined && COLUMNS[k]);
      const sets = entries.map(([k], i) => `${COLUMNS[k].column} = $${i + 2}${COLUMNS[k].json ? '::jsonb' : ''}`);
      const params = entries.map(([k, v]) => (COLUMNS[k].json ? JSON.stringify(v) : v));
      const row = await uniquely(
        () => one<Row>(tx, `UPDATE model_config_versions SET ${[...sets, 'updated_at = clock_timestamp()'].join(', ')} WHERE id = $1 RETURNING *`, [id, ...params]),
        labelTaken,
      );
      return toVersion(row!);
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const target = await one<{ config_id: string }>(tx, `SELECT config_id FROM model_config_versions WHERE id = $1`, [id]);
      if (!target) return;
      await lockConfig(tx, target.config_id);
      const gone = await one<{ traffic_share: number; is_active: boolean }>(
        tx,
        `DELETE FROM model_config_versions WHERE id = $1 RETURNING traffic_share, is_active`,
        [id],
      );
      if (!gone?.is_active || gone.traffic_share === 0) return;
      const remaining = await activeSharesExcept(tx, target.config_id, null);
      for (const { id: versionId, share } of redistribute(remaining, gone.traffic_share)) {
        await tx.query(`UPDATE model_config_versions SET traffic_share = $2, updated_at = clock_timestamp() WHERE id = $1`, [versionId, share]);
      }
    });
  }

  async activeSharesOfDefault(applicationId: string): Promise<TrafficShare[]> {
    const found = await rows<{ id: string; traffic_share: number }>(
      this.db,
      `SELECT v.id, v.traffic_share FROM model_config_versions v JOIN model_configs c ON c.id = v.config_id
       WHERE c.application_id = $1 AND c.is_default AND v.is_active AND v.traffic_share > 0
       ORDER BY v.created_at, v.id`,
      [applicationId],
    );
    return found.map((r) => ({ id: r.id, share: r.traffic_share }));
  }

  async recordOutcome(id: string, outcome: AnswerOutcome): Promise<void> {
    await this.db.query(VERSION_OUTCOME, recordOutcomeParams(id, outcome));
  }

}
