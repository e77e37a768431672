import type { DataSource } from 'typeorm';
import { DEFAULT_ANNOTATION_SETTINGS, type Annotation, type AnnotationKind, type AnnotationSettings } from '../../../core/logs/domain/annotation';
import type { AnnotatableAnswer, AnnotationRepository, AnnotationVector, NewAnnotation } from '../../../core/logs/ports/annotation-repository.port';
import { ConflictError } from '../../../core/shared/errors';
import { affected, one, rows, uniquely } from '../sql';

interface AnnotationRow {
  id: string;
  application_id: string;
  message_id: string | null;
  kind: AnnotationKind;
  question: string;
  answer: string;
  created_by: string | null;
  hit_count: number;
  last_hit_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, application_id, message_id, kind, question, answer, created_by, hit_count, last_hit_at, created_at, updated_at`;

const toAnnotation = (r: AnnotationRow): Annotation => ({
  id: r.id,
  applicationId: r.application_id,
  messageId: r.message_id,
  kind: r.kind,
  question: r.question,
  answer: r.answer,
  createdBy: r.created_by,
  hitCount: Number(r.hit_count),
  lastHitAt: r.last_hit_at ? new Date(r.last_hit_at) : null,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** A vector as a PostgreSQL array literal (both drivers take it as text cast to real[]). */
const vectorLiteral = (v: number[]): string => `{${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}}`;

/** Annotations and their settings in PostgreSQL or PGlite. */
export class TypeOrmAnnotationRepository implements AnnotationRepository {
  constructor(private readonly db: DataSource) {}

  async create(a: NewAnnotation, limit: number): Promise<Annotation> {
    const row = await uniquely(
      () =>
        one<AnnotationRow>(
          this.db,
          `INSERT INTO annotations (application_id, message_id, kind, question, answer, embedding, embedding_model, created_by)
           SELECT $1, $2, $3, $4, $5, $6::real[], $7, $8
            WHERE (SELECT count(*) FROM annotations WHERE application_id = $1) < $9
           RETURNING ${COLUMNS}`,
          [a.applicationId, a.messageId, a.kind, a.question, a.answer, vectorLiteral(a.embedding), a.embeddingModel, a.createdBy, limit],
        ),
      () => 'This answer is annotated already; edit its annotation instead',
    );
    if (!row) throw new ConflictError(`An application holds at most ${limit} annotations; delete some first`);
    return toAnnotation(row);
  }

  async find(applicationId: string, id: string): Promise<Annotation | null> {
    const row = await one<AnnotationRow>(this.db, `SELECT ${COLUMNS} FROM annotations WHERE id = $1 AND application_id = $2`, [id, applicationId]);
    return row && toAnnotation(row);
  }

  async list(applicationId: string, filter: { search?: string }, offset: number, limit: number): Promise<{ items: Annotation[]; total: number }> {
    const params: unknown[] = [applicationId];
    let where = `application_id = $1`;
    if (filter.search) {
      params.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where += ` AND (question ILIKE $2 OR answer ILIKE $2)`;
    }
    const [found, counted] = await Promise.all([
      rows<AnnotationRow>(this.db, `SELECT ${COLUMNS} FROM annotations WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, limit, offset]),
      one<{ n: number | string }>(this.db, `SELECT count(*) AS n FROM annotations WHERE ${where}`, params),
    ]);
    return { items: found.map(toAnnotation), total: Number(counted?.n ?? 0) };
  }

  async all(applicationId: string): Promise<Annotation[]> {
    return (await rows<AnnotationRow>(this.db, `SELECT ${COLUMNS} FROM annotations WHERE application_id = $1 ORDER BY created_at, id`, [applicationId])).map(toAnnotation);
  }

  async update(applicationId: string, id: string, c: { question: string; answer: string; kind: AnnotationKind; embedding: number[]; embeddingModel: string }): Promise<Annotation | null> {
    const row = await one<AnnotationRow>(
      this.db,
      `UPDATE annotations SET question = $3, answer = $4, kind = $5, embedding = $6::real[], embedding_model = $7, updated_at = clock_timestamp()
        WHERE id = $1 AND application_id = $2 RETURNING ${COLUMNS}`,
      [id, applicationId, c.question, c.answer, c.kind, vectorLiteral(c.embedding), c.embeddingModel],
    );
    return row && toAnnotation(row);
  }

  async delete(applicationId: string, id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM annotations WHERE id = $1 AND application_id = $2`, [id, applicationId])) > 0;
  }

  async answer(applicationId: string, messageId: string): Promise<AnnotatableAnswer | null> {
    const row = await one<{ message_id: string; application_id: string; question: string | null; answer: string }>(
      this.db,
      `SELECT m.id AS message_id, c.application_id, m.content AS answer,
              (SELECT q.content FROM messages q WHERE q.conversation_id = m.conversation_id AND q.role = 'user' AND q.seq < m.seq ORDER BY q.seq DESC LIMIT 1) AS question
         FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.id = $1 AND c.application_id = $2 AND m.role = 'assistant'`,
      [messageId, applicationId],
    );
    return row && { messageId: row.message_id, applicationId: row.application_id, question: row.question ?? '', answer: row.answer };
  }

  async settings(applicationId: string): Promise<AnnotationSettings> {
    const row = await one<{ replies_enabled: boolean; threshold: number }>(this.db, `SELECT replies_enabled, threshold FROM annotation_settings WHERE application_id = $1`, [applicationId]);
    return row ? { repliesEnabled: row.replies_enabled, threshold: roundThreshold(row.threshold) } : { ...DEFAULT_ANNOTATION_SETTINGS };
  }

  async saveSettings(applicationId: string, s: AnnotationSettings): Promise<AnnotationSettings> {
    const row = await one<{ replies_enabled: boolean; threshold: number }>(
      this.db,
      `INSERT INTO annotation_settings (application_id, replies_enabled, threshold) VALUES ($1, $2, $3)
       ON CONFLICT (application_id) DO UPDATE SET replies_enabled = EXCLUDED.replies_enabled, threshold = EXCLUDED.threshold, updated_at = clock_timestamp()
       RETURNING replies_enabled, threshold`,
      [applicationId, s.repliesEnabled, s.threshold],
    );
    return { repliesEnabled: row!.replies_enabled, threshold: roundThreshold(row!.threshold) };
  }

  async vectors(applicationId: string): Promise<AnnotationVector[]> {
    const found = await rows<{ id: string; answer: string; embedding: number[] | null; embedding_model: string | null }>(
      this.db,
      `SELECT id, answer, to_jsonb(embedding) AS embedding, embedding_model FROM annotations WHERE application_id = $1 AND embedding IS NOT NULL`,
      [applicationId],
    );
    return found.map((r) => ({ id: r.id, answer: r.answer, embedding: (r.embedding ?? []).map(Number), embeddingModel: r.embedding_model }));
  }

  async recordReply(annotationId: string, messageId: string, at: Date): Promise<void> {
    await rows(
      this.db,
      `WITH marked AS (UPDATE messages SET metadata = coalesce(metadata, '{}'::jsonb) || jsonb_build_object('annotationId', $4::text) WHERE id = $2 RETURNING id)
       UPDATE annotations SET hit_count = hit_count + 1, last_hit_at = $3 WHERE id = $1`,
      [annotationId, messageId, at, annotationId],
    );
  }
}

/** `real` holds about 7 digits: 0.85 reads back as 0.8500000238. */
const roundThreshold = (t: number): number => Math.round(Number(t) * 1e4) / 1e4;
