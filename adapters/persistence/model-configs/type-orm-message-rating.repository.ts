import type { DataSource } from 'typeorm';
import type { MessageRatingRepository } from '../../../core/model-configs/ports/message-rating-repository.port';
import { one, rows } from '../sql';

export class TypeOrmMessageRatingRepository implements MessageRatingRepository {
  constructor(private readonly db: DataSource) {}

  async rate(conversationId: string, messageId: string, rating: number): Promise<'rated' | 'missing' | 'not-rateable'> {
    // The rule and the write in one statement: a message that may not be rated keeps its value.
    const row = await one<{ rateable: boolean }>(
      this.db,
      `UPDATE messages SET rating = CASE WHEN role = 'assistant' AND status <> 'failed' THEN $3::smallint ELSE rating END
       WHERE id = $2 AND conversation_id = $1
       RETURNING (role = 'assistant' AND status <> 'failed') AS rateable`,
      [conversationId, messageId, rating],
    );
    if (!row) return 'missing';
    return row.rateable ? 'rated' : 'not-rateable';
  }

  async averageByVersion(versionIds: string[]): Promise<Map<string, number>> {
    if (versionIds.length === 0) return new Map();
    const found = await rows<{ id: string; average: number }>(
      this.db,
      `SELECT config_version_id AS id, avg(rating)::double precision AS average FROM messages
       WHERE config_version_id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)
         AND role = 'assistant' AND rating IS NOT NULL
       GROUP BY config_version_id`,
      [JSON.stringify(versionIds)],
    );
    return new Map(found.map((r) => [r.id, Number(r.average)]));
  }

  async averageOfControl(config: { applicationId: string; provider: string; modelId: string }, since: Date | null = null): Promise<number | null> {
    const row = await one<{ average: number | null }>(
      this.db,
      `SELECT avg(m.rating)::double precision AS average FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE c.application_id = $1 AND m.config_version_id IS NULL AND m.provider = $2 AND m.model = $3
         AND m.role = 'assistant' AND m.rating IS NOT NULL AND ($4::timestamptz IS NULL OR m.created_at >= $4::timestamptz)`,
      [config.applicationId, config.provider, config.modelId, since],
    );
    return row?.average === null || row?.average === undefined ? null : Number(row.average);
  }
}
