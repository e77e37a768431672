import type { DataSource } from 'typeorm';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ModelSettings } from '../../../core/ai/ports/llm-provider.port';
import type { AnswerOutcome, VersionCounters } from '../../../core/model-configs/domain/config-version';
import { MAX_CONFIGS_PER_APPLICATION, type ModelConfig } from '../../../core/model-configs/domain/model-config';
import type { ModelConfigChanges, ModelConfigRepository, NewModelConfig } from '../../../core/model-configs/ports/model-config-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import { one, rows, type Sql } from '../sql';
import { recordOutcomeParams, recordOutcomeStatement } from './answer-outcome.sql';

const CONTROL_OUTCOME = recordOutcomeStatement('model_configs', 'control_');

interface Row {
  id: string;
  application_id: string;
  name: string;
  provider: ProviderId;
  model_id: string;
  settings: ModelSettings;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

const toConfig = (r: Row): ModelConfig => ({
  id: r.id,
  applicationId: r.application_id,
  name: r.name,
  provider: r.provider,
  modelId: r.model_id,
  isDefault: r.is_default,
  settings: r.settings,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS: Record<keyof ModelConfigChanges, { column: string; json?: boolean }> = {
  name: { column: 'name' },
  provider: { column: 'provider' },
  modelId: { column: 'model_id' },
  settings: { column: 'settings', json: true },
};

/**
 * Changes of an application's default take its row lock first (NO KEY UPDATE, which does not block
 * conversations being inserted for it), so concurrent switches run one after the other and each sees
 * the default the previous one left.
 */
async function lockApplication(db: Sql, applicationId: string): Promise<void> {
  const locked = await one(db, `SELECT id FROM applications WHERE id = $1 FOR NO KEY UPDATE`, [applicationId]);
  if (!locked) throw new NotFoundError('Application');
}

export class TypeOrmModelConfigRepository implements ModelConfigRepository {
  constructor(private readonly db: DataSource) {}

  create(c: NewModelConfig): Promise<ModelConfig> {
    return this.db.transaction(async (tx) => {
      await lockApplication(tx, c.applicationId);
      const held = await one<{ n: number; has_default: boolean | null }>(
        tx,
        `SELECT count(*)::int AS n, bool_or(is_default) AS has_default FROM model_configs WHERE application_id = $1`,
        [c.applicationId],
      );
      if ((held?.n ?? 0) >= MAX_CONFIGS_PER_APPLICATION) {
        throw new ConflictError(`An application holds at most ${MAX_CONFIGS_PER_APPLICATION} model configs`);
      }
      const makeDefault = c.makeDefault || !held?.has_default;
      if (makeDefault) await tx.query(`UPDATE model_configs SET is_default = false, updated_at = clock_timestamp() WHERE application_id = $1 AND is_default`, [c.applicationId]);
      const row = await one<Row>(
        tx,
        `INSERT INTO model_configs (application_id, name, provider, model_id, settings, is_default)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING *`,
        [c.applicationId, c.name, c.provider, c.modelId, JSON.stringify(c.settings), makeDefault],
      );
      return toConfig(row!);
    });
  }

  async findWithOwner(id: string): Promise<{ config: ModelConfig; ownerId: string; teamId: string | null } | null> {
    const row = await one<Row & { owner_id: string; team_id: string | null }>(
      this.db,
      `SELECT c.*, a.owner_id, a.team_id FROM model_configs c JOIN applications a ON a.id = c.application_id WHERE c.id = $1`,
      [id],
    );
    return row && { config: toConfig(row), ownerId: row.owner_id, teamId: row.team_id ?? null };
  }

  async listByApplication(applicationId: string, offset: number, limit: number): Promise<ModelConfig[]> {
    const found = await rows<Row>(
      this.db,
      `SELECT * FROM model_configs WHERE application_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [applicationId, limit, offset],
    );
    return found.map(toConfig);
  }

  async findDefault(applicationId: string): Promise<ModelConfig | null> {
    const row = await one<Row>(this.db, `SELECT * FROM model_configs WHERE application_id = $1 AND is_default`, [applicationId]);
    return row && toConfig(row);
  }

  async update(id: string, changes: ModelConfigChanges): Promise<ModelConfig> {
    const entries = (Object.entries(changes) as [keyof ModelConfigChanges, unknown][]).filter(([k, v]) => v !== undefined && COLUMNS[k]);
    const sets = entries.map(([k], i) => `${COLUMNS[k].column} = $${i + 2}${COLUMNS[k].json ? '::jsonb' : ''}`);
    const params = entries.map(([k, v]) => (COLUMNS[k].json ? JSON.stringify(v) : v));
    const row = await one<Row>(
      this.db,
      `UPDATE model_configs SET ${[...sets, 'updated_at = clock_timestamp()'].join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...params],
    );
    if (!row) throw new NotFoundError('Model config');
    return toConfig(row);
  }

  setDefault(id: string): Promise<ModelConfig> {
    return this.db.transaction(async (tx) => {
      const target = await one<{ application_id: string }>(tx, `SELECT application_id FROM model_configs WHERE id = $1`, [id]);
      if (!target) throw new NotFoundError('Model config');
      await lockApplication(tx, target.application_id);
      await tx.query(
        `UPDATE model_configs SET is_default = false, updated_at = clock_timestamp() WHERE application_id = $1 AND is_default AND id <> $2`,
        [target.application_id, id],
      );
      const row = await one<Row>(
        tx,
        `UPDATE model_configs SET is_default = true, updated_at = CASE WHEN is_default THEN updated_at ELSE clock_timestamp() END
         WHERE id = $1 RETURNING *`,
        [id],
      );
      if (!row) throw new NotFoundError('Model config');
      return toConfig(row);
    });
  }

  async delete(id: string): Promise<'deleted' | 'default' | 'missing'> {
    // One statement: a concurrent switch of the default cannot slip between the check and the delete.
    const deleted = await one<{ id: string }>(this.db, `DELETE FROM model_configs WHERE id = $1 AND NOT is_default RETURNING id`, [id]);
    if (deleted) return 'deleted';
    const still = await one<{ id: string }>(this.db, `SELECT id FROM model_configs WHERE id = $1`, [id]);
    return still ? 'default' : 'missing';
  }

  async recordControlOutcome(id: string, outcome: AnswerOutcome): Promise<void> {
    await this.db.query(CONTROL_OUTCOME, recordOutcomeParams(id, outcome));
  }


  async controlCounters(id: string): Promise<VersionCounters> {
    const row = await one<{ request_count: number; error_count: number; avg_latency_ms: number; avg_tokens_used: number }>(
      this.db,
      `SELECT control_request_count AS request_count, control_error_count AS error_count,
              control_avg_latency_ms AS avg_latency_ms, control_avg_tokens_used AS avg_tokens_used
         FROM model_configs WHERE id = $1`,
      [id],
    );
    return {
      requestCount: Number(row?.request_count ?? 0),
      errorCount: Number(row?.error_count ?? 0),
      avgLatencyMs: Number(row?.avg_latency_ms ?? 0),
      avgTokensUsed: Number(row?.avg_tokens_used ?? 0),
    };
  }
}
