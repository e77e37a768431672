import type { DataSource } from 'typeorm';
import type { EvaluatorSpec } from '../../../core/evaluations/domain/evaluator';
import type { ClaimedSample, LiveAnswer, LiveSample, SampleOutcome, SavedEvaluator, ScoringCandidate } from '../../../core/evaluations/domain/live-scoring';
import type { LiveScoreRepository, SavedEvaluatorRepository } from '../../../core/evaluations/ports/live-scores.port';
import { CONTROL_ARM } from '../../../core/experiments/domain/experiment';
import type { Moments } from '../../../core/experiments/domain/sequential-test';
import type { ObservationScope } from '../../../core/experiments/ports/arm-observations.port';
import { one, rows, affected } from '../sql';

interface EvaluatorRow {
  id: string;
  application_id: string;
  name: string;
  spec: EvaluatorSpec;
  created_at: Date;
}

const toEvaluator = (r: EvaluatorRow): SavedEvaluator => ({ id: r.id, applicationId: r.application_id, name: r.name, spec: r.spec, createdAt: new Date(r.created_at) });

export class SqlSavedEvaluatorRepository implements SavedEvaluatorRepository {
  constructor(private readonly db: DataSource) {}

  async create(e: { applicationId: string; name: string; spec: EvaluatorSpec }): Promise<SavedEvaluator> {
    const row = await one<EvaluatorRow>(this.db, `INSERT INTO evaluation_evaluators (application_id, name, spec) VALUES ($1, $2, $3::jsonb) RETURNING *`, [e.applicationId, e.name, JSON.stringify(e.spec)]);
    return toEvaluator(row!);
  }

  async findById(id: string): Promise<SavedEvaluator | null> {
    const row = await one<EvaluatorRow>(this.db, `SELECT * FROM evaluation_evaluators WHERE id = $1`, [id]);
    return row && toEvaluator(row);
  }

  async listByApplication(applicationId: string): Promise<SavedEvaluator[]> {
    return (await rows<EvaluatorRow>(this.db, `SELECT * FROM evaluation_evaluators WHERE application_id = $1 ORDER BY created_at, id`, [applicationId])).map(toEvaluator);
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM evaluation_evaluators WHERE id = $1`, [id])) > 0;
  }
}

const CLAIMABLE = `(state = 'pending' OR (state = 'running' AND claimed_until < clock_timestamp()))`;
const SAMPLE_COLUMNS = `id, experiment_id, application_id, evaluator_id, message_id, arm, attempts`;

interface SampleRow {
  id: string;
  experiment_id: string;
  application_id: string;
  evaluator_id: string;
  message_id: string;
  arm: string;
  attempts: number;
}

/**
 * Samples and scores in `live_answer_scores`. An answer's arm is named as the A/B test's observations name it
 * (`adapters/persistence/experiments/sql-arm-observations.ts`): a version's answers by the version's id, the
 * control's as the application's answers without a version from the config's provider and model.
 */
export class SqlLiveScoreRepository implements LiveScoreRepository {
  constructor(private readonly db: DataSource) {}

  async candidates(messageId: string): Promise<ScoringCandidate[]> {
    const found = await rows<{ experiment_id: string; application_id: string; evaluator_id: string; message_id: string; arm: string; sample_rate: number; samples_per_hour: number }>(
      this.db,
      `SELECT e.id AS experiment_id, e.application_id, e.evaluator_id, m.id AS message_id, e.sample_rate, e.samples_per_hour,
              COALESCE(m.config_version_id::text, '${CONTROL_ARM}') AS arm
         FROM messages m
         JOIN conversations c ON c.id = m.conversation_id
         JOIN experiments e ON e.application_id = c.application_id AND e.status = 'running' AND e.goal = 'evaluator_score'
         JOIN model_configs mc ON mc.id = e.config_id
         JOIN evaluation_evaluators ev ON ev.id = e.evaluator_id AND ev.application_id = e.application_id
        WHERE m.id = $1 AND m.role = 'assistant' AND m.status = 'complete' AND m.created_at >= e.started_at
          AND ((m.config_version_id IS NULL AND m.provider = mc.provider AND m.model = mc.model_id)
               OR m.config_version_id IN (SELECT v.id FROM model_config_versions v WHERE v.config_id = e.config_id))`,
      [messageId],
    );
    return found.map((r) => ({
      experimentId: r.experiment_id,
      applicationId: r.application_id,
      evaluatorId: r.evaluator_id,
      messageId: r.message_id,
      arm: r.arm,
      sampleRate: Number(r.sample_rate),
      samplesPerHour: Number(r.samples_per_hour),
    }));
  }

  async enqueue(sample: LiveSample, samplesPerHour: number, now: Date): Promise<boolean> {
    // One test's samples are queued in turn (an advisory lock held to the commit), so the hourly cap holds exactly.
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`live-scores:${sample.experimentId}`]);
      const inHour = (await one<{ n: number }>(tx, `SELECT count(*)::int AS n FROM live_answer_scores WHERE experiment_id = $1 AND created_at > $2::timestamptz - interval '1 hour'`, [sample.experimentId, now]))?.n ?? 0;
      if (inHour >= samplesPerHour) return false;
      const row = await one<{ id: string }>(
        tx,
        `INSERT INTO live_answer_scores (experiment_id, application_id, evaluator_id, message_id, arm, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (evaluator_id, message_id) DO NOTHING RETURNING id`,
        [sample.experimentId, sample.applicationId, sample.evaluatorId, sample.messageId, sample.arm, now],
      );
      return row !== null;
    });
  }

  async claimNext(experimentId: string, leaseMs: number): Promise<ClaimedSample | null> {
    const row = await one<SampleRow>(
      this.db,
      `UPDATE live_answer_scores SET state = 'running', attempts = attempts + 1, claimed_until = clock_timestamp() + $2::int * interval '1 millisecond'
        WHERE id = (SELECT id FROM live_answer_scores WHERE experiment_id = $1 AND ${CLAIMABLE} ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND ${CLAIMABLE}
        RETURNING ${SAMPLE_COLUMNS}`,
      [experimentId, leaseMs],
    );
    return row
      ? { id: row.id, experimentId: row.experiment_id, applicationId: row.application_id, evaluatorId: row.evaluator_id, messageId: row.message_id, arm: row.arm, attempts: Number(row.attempts) }
      : null;
  }

  async answer(messageId: string): Promise<LiveAnswer | null> {
    const row = await one<{ content: string; provider: string | null; model: string | null; latency_ms: number | null; prompt_tokens: number | null; completion_tokens: number | null; question: string | null }>(
      this.db,
      `SELECT m.content, m.provider, m.model, m.latency_ms, m.prompt_tokens, m.completion_tokens,
              (SELECT u.content FROM messages u WHERE u.conversation_id = m.conversation_id AND u.role = 'user' AND u.seq < m.seq ORDER BY u.seq DESC LIMIT 1) AS question
         FROM messages m WHERE m.id = $1`,
      [messageId],
    );
    return row
      ? {
          question: row.question ?? '',
          answer: row.content,
          provider: row.provider,
          model: row.model,
          latencyMs: Number(row.latency_ms ?? 0),
          promptTokens: Number(row.prompt_tokens ?? 0),
          completionTokens: Number(row.completion_tokens ?? 0),
        }
      : null;
  }

  async finish(sampleId: string, outcome: SampleOutcome): Promise<boolean> {
    const n = outcome.ok
      ? await affected(
          this.db,
          `UPDATE live_answer_scores SET state = 'done', claimed_until = NULL, score = $2, passed = $3, reason = $4, error = NULL, scored_at = clock_timestamp()
            WHERE id = $1 AND state = 'running'`,
          [sampleId, Math.max(0, Math.min(1, outcome.score.score)), outcome.score.passed, outcome.score.reason.replace(/\u0000/g, '').slice(0, 4000)],
        )
      : await affected(
          this.db,
          `UPDATE live_answer_scores SET state = 'failed', claimed_until = NULL, error = $2, scored_at = clock_timestamp() WHERE id = $1 AND state = 'running'`,
          [sampleId, outcome.error.replace(/\u0000/g, '').slice(0, 1000)],
        );
    return n > 0;
  }

  async waiting(limit: number): Promise<string[]> {
    const found = await rows<{ experiment_id: string }>(this.db, `SELECT DISTINCT experiment_id FROM live_answer_scores WHERE ${CLAIMABLE} LIMIT $1`, [limit]);
    return found.map((r) => r.experiment_id);
  }

  async armScores(scope: ObservationScope, evaluatorId: string): Promise<Map<string, Moments>> {
    const found = await rows<{ arm: string; n: number; s: number | null; ss: number | null }>(
      this.db,
      `SELECT s.arm, count(*)::int AS n, sum(s.score) AS s, sum(s.score * s.score) AS ss
         FROM live_answer_scores s JOIN messages m ON m.id = s.message_id
        WHERE s.application_id = $1 AND s.evaluator_id = $6 AND s.state = 'done' AND m.created_at >= $2
          AND ((m.config_version_id IS NULL AND m.provider = $3 AND m.model = $4)
               OR m.config_version_id IN (SELECT jsonb_array_elements_text($5::jsonb)::uuid))
        GROUP BY s.arm`,
      [scope.applicationId, scope.since, scope.control.provider, scope.control.modelId, JSON.stringify(scope.versionIds), evaluatorId],
    );
    return new Map(found.map((r) => [r.arm, { n: Number(r.n), sum: Number(r.s ?? 0), sumSquares: Number(r.ss ?? 0) }]));
  }
}
