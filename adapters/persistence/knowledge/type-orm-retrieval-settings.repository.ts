import type { DataSource } from 'typeorm';
import type { SearchMode } from '../../../core/knowledge/domain/hybrid-ranking';
import type { RetrievalSettings } from '../../../core/knowledge/domain/retrieval-settings';
import type { RetrievalSettingsRepository } from '../../../core/knowledge/ports/retrieval-settings-repository.port';
import { one } from '../sql';

export class TypeOrmRetrievalSettingsRepository implements RetrievalSettingsRepository {
  constructor(private readonly db: DataSource) {}

  async find(applicationId: string): Promise<RetrievalSettings | null> {
    const row = await one<{ mode: SearchMode | null; top_k: number; score_threshold: number | null; rerank: boolean }>(
      this.db,
      `SELECT mode, top_k, score_threshold, rerank FROM knowledge_retrieval_settings WHERE application_id = $1`,
      [applicationId],
    );
    return row && { mode: row.mode ?? null, topK: Number(row.top_k), scoreThreshold: row.score_threshold === null ? null : Number(row.score_threshold), rerank: Boolean(row.rerank) };
  }

  async save(applicationId: string, s: RetrievalSettings): Promise<void> {
    await this.db.query(
      `INSERT INTO knowledge_retrieval_settings (application_id, mode, top_k, score_threshold, rerank) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (application_id) DO UPDATE SET mode = excluded.mode, top_k = excluded.top_k, score_threshold = excluded.score_threshold,
         rerank = excluded.rerank, updated_at = now()`,
      [applicationId, s.mode, s.topK, s.scoreThreshold, s.rerank],
    );
  }
}

/** For unit tests. */
export class InMemoryRetrievalSettingsRepository implements RetrievalSettingsRepository {
  readonly settings = new Map<string, RetrievalSettings>();

  async find(applicationId: string): Promise<RetrievalSettings | null> {
    const found = this.settings.get(applicationId);
    return found ? { ...found } : null;
  }

  async save(applicationId: string, settings: RetrievalSettings): Promise<void> {
    this.settings.set(applicationId, { ...settings });
  }
}
