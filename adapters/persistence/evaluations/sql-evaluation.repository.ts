import type { DataSource } from 'typeorm';
import type { Dataset, DatasetItem, ItemInput, NewItem } from '../../../core/evaluations/domain/dataset';
import type { Score } from '../../../core/evaluations/domain/evaluator';
import type { EvaluationResult, EvaluationRun, ResultOutcome, TargetTotals } from '../../../core/evaluations/domain/run';
import type { DatasetRepository, EvaluationRunRepository, NewRun } from '../../../core/evaluations/ports/evaluation-repository.port';
import { NotFoundError, ValidationError } from '../../../core/shared/errors';
import { affected, one, rows, type Sql } from '../sql';

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
/** JSON for a jsonb parameter: PostgreSQL's jsonb refuses the NUL character, so it is dropped. */
const jsonb = (v: unknown): string => JSON.stringify(v === undefined ? null : v).replace(/(?<!\\)\\u0000/g, '');

interface DatasetRow {
  id: string;
  application_id: string;
  name: string;
  description: string;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
}
interface ItemRow {
  id: string;
  dataset_id: string;
  seq: number;
  input: ItemInput | string;
  expected: string | null;
  tags: string[] | string;
  added_version: number;
  removed_version: number | null;
  created_at: Date | string;
}

const toDataset = (r: DatasetRow): Dataset => ({ id: r.id, applicationId: r.application_id, name: r.name, description: r.description, version: Number(r.version), createdAt: date(r.created_at), updatedAt: date(r.updated_at) });
const toItem = (r: ItemRow): DatasetItem => ({
  id: r.id,
  datasetId: r.dataset_id,
  seq: Number(r.seq),
  input: json(r.input),
  expected: r.expected,
  tags: json(r.tags),
  addedVersion: Number(r.added_version),
  removedVersion: r.removed_version === null ? null : Number(r.removed_version),
  createdAt: date(r.created_at),
});

const DATASET_COLUMNS = 'id, application_id, name, description, version, created_at, updated_at';
const ITEM_COLUMNS = 'id, dataset_id, seq, input, expected, tags, added_version, removed_version, created_at';
/** The items of a version: added at or before it, not removed by it. */
const AT_VERSION = 'added_version <= $2 AND (removed_version IS NULL OR removed_version > $2)';

export class SqlDatasetRepository implements DatasetRepository {
  constructor(private readonly db: DataSource) {}

  async create(d: { applicationId: string; name: string; description: string }): Promise<Dataset> {
    return toDataset((await one<DatasetRow>(this.db, `INSERT INTO evaluation_datasets (application_id, name, description) VALUES ($1, $2, $3) RETURNING ${DATASET_COLUMNS}`, [d.applicationId, d.name, d.description]))!);
  }

  async findById(id: string): Promise<Dataset | null> {
    const row = await one<DatasetRow>(this.db, `SELECT ${DATASET_COLUMNS} FROM evaluation_datasets WHERE id = $1`, [id]);
    return row ? toDataset(row) : null;
  }

  async listByApplication(applicationId: string): Promise<Array<{ dataset: Dataset; itemCount: number }>> {
    const found = await rows<DatasetRow & { item_count: number }>(
      this.db,
      `SELECT ${DATASET_COLUMNS.replace(/(\w+)/g, 'd.$1')},
              (SELECT count(*)::int FROM evaluation_items i WHERE i.dataset_id = d.id AND i.removed_version IS NULL) AS item_count
         FROM evaluation_datasets d WHERE d.application_id = $1 ORDER BY d.created_at DESC LIMIT 200`,
      [applicationId],
    );
    return found.map((r) => ({ dataset: toDataset(r), itemCount: Number(r.item_count) }));
  }

  async update(id: string, changes: { name?: string; description?: string }): Promise<Dataset> {
    const row = await one<DatasetRow>(
      this.db,
      `UPDATE evaluation_datasets SET name = COALESCE($2, name), description = COALESCE($3, description), updated_at = now() WHERE id = $1 RETURNING ${DATASET_COLUMNS}`,
      [id, changes.name ?? null, changes.description ?? null],
    );
    if (!row) throw new NotFoundError('Dataset');
    return toDataset(row);
  }

  async delete(id: string): Promise<void> {
    await affected(this.db, `DELETE FROM evaluation_datasets WHERE id = $1`, [id]);
  }

  async items(datasetId: string, version?: number): Promise<DatasetItem[]> {
    if (version === undefined) {
      return (await rows<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM evaluation_items WHERE dataset_id = $1 AND removed_version IS NULL ORDER BY seq`, [datasetId])).map(toItem);
    }
    return (await rows<ItemRow>(this.db, `SELECT ${ITEM_COLUMNS} FROM evaluation_items WHERE dataset_id = $1 AND ${AT_VERSION} ORDER BY seq`, [datasetId, version])).map(toItem);
  }

  async countItems(datasetId: string): Promise<number> {
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM evaluation_items WHERE dataset_id = $1 AND removed_version IS NULL`, [datasetId]))?.n ?? 0;
  }

  async addItems(datasetId: string, items: NewItem[], maxItems: number): Promise<{ dataset: Dataset; items: DatasetItem[] }> {
    return this.db.transaction(async (tx) => {
      // The dataset's row is the lock: concurrent additions take turns, and each counts what the other added.
      const locked = await one<DatasetRow>(tx, `SELECT ${DATASET_COLUMNS} FROM evaluation_datasets WHERE id = $1 FOR UPDATE`, [datasetId]);
      if (!locked) throw new NotFoundError('Dataset');
      const stats = (await one<{ n: number; seq: number }>(tx, `SELECT count(*) FILTER (WHERE removed_version IS NULL)::int AS n, COALESCE(max(seq), 0)::int AS seq FROM evaluation_items WHERE dataset_id = $1`, [datasetId]))!;
      if (Number(stats.n) + items.length > maxItems) throw ValidationError.field('items', `A dataset holds at most ${maxItems} items (it has ${stats.n})`);
      const version = Number(locked.version) + 1;
      const inserted = await insertItems(tx, datasetId, items, Number(stats.seq), version);
      const dataset = (await one<DatasetRow>(tx, `UPDATE evaluation_datasets SET version = $2, updated_at = now() WHERE id = $1 RETURNING ${DATASET_COLUMNS}`, [datasetId, version]))!;
      return { dataset: toDataset(dataset), items: inserted };
    });
  }

  async removeItem(datasetId: string, itemId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const locked = await one<DatasetRow>(tx, `SELECT ${DATASET_COLUMNS} FROM evaluation_datasets WHERE id = $1 FOR UPDATE`, [datasetId]);
      if (!locked) return false;
      const version = Number(locked.version) + 1;
      const n = await affected(tx, `UPDATE evaluation_items SET removed_version = $3 WHERE id = $1 AND dataset_id = $2 AND removed_version IS NULL`, [itemId, datasetId, version]);
      if (n === 0) return false;
      await affected(tx, `UPDATE evaluation_datasets SET version = $2, updated_at = now() WHERE id = $1`, [datasetId, version]);
      return true;
    });
  }
}

/** Items in batches of 500 rows a statement (one jsonb array unnested), numbered after `lastSeq`. */
async function insertItems(tx: Sql, datasetId: string, items: NewItem[], lastSeq: number, version: number): Promise<DatasetItem[]> {
  const out: DatasetItem[] = [];
  for (let start = 0; start < items.length; start += 500) {
    const batch = items.slice(start, start + 500).map((item, i) => ({ seq: lastSeq + start + i + 1, input: item.input, expected: item.expected, tags: item.tags }));
    const inserted = await rows<ItemRow>(
      tx,
      `INSERT INTO evaluation_items (dataset_id, seq, input, expected, tags, added_version)
       SELECT $1, (e->>'seq')::int, e->'input', e->>'expected', e->'tags', $3 FROM jsonb_array_elements($2::jsonb) AS e
       RETURNING ${ITEM_COLUMNS}`,
      [datasetId, jsonb(batch), version],
    );
    out.push(...inserted.map(toItem).sort((a, b) => a.seq - b.seq));
  }
  return out;
}

interface RunRow {
  id: string;
  application_id: string;
  dataset_id: string;
  dataset_version: number;
  name: string;
  targets: EvaluationRun['targets'] | string;
  evaluators: EvaluationRun['evaluators'] | string;
  pass_threshold: number | null;
  concurrency: number;
  status: EvaluationRun['status'];
  trigger: EvaluationRun['trigger'];
  total: number;
  error: string | null;
  created_by: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}
interface ResultRow {
  id: string;
  run_id: string;
  item_id: string;
  seq: number;
  target_index: number;
  state: EvaluationResult['state'];
  attempts: number;
  answer: string | null;
  scores: Score[] | string;
  passed: boolean | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  cost: number | null;
  latency_ms: number | null;
  conversation_id: string | null;
  message_id: string | null;
  error: string | null;
}

const RUN_COLUMNS = 'id, application_id, dataset_id, dataset_version, name, targets, evaluators, pass_threshold, concurrency, status, trigger, total, error, created_by, created_at, finished_at';
const RESULT_COLUMNS = 'id, run_id, item_id, seq, target_index, state, attempts, answer, scores, passed, prompt_tokens, completion_tokens, cost, latency_ms, conversation_id, message_id, error';

const toRun = (r: RunRow): EvaluationRun => ({
  id: r.id,
  applicationId: r.application_id,
  datasetId: r.dataset_id,
  datasetVersion: Number(r.dataset_version),
  name: r.name,
  targets: json(r.targets),
  evaluators: json(r.evaluators),
  passThreshold: r.pass_threshold === null ? null : Number(r.pass_threshold),
  concurrency: Number(r.concurrency),
  status: r.status,
  trigger: r.trigger,
  total: Number(r.total),
  error: r.error,
  createdBy: r.created_by,
  createdAt: date(r.created_at),
  finishedAt: r.finished_at === null ? null : date(r.finished_at),
});

const toResult = (r: ResultRow): EvaluationResult => ({
  id: r.id,
  runId: r.run_id,
  itemId: r.item_id,
  seq: Number(r.seq),
  targetIndex: Number(r.target_index),
  state: r.state,
  attempts: Number(r.attempts),
  answer: r.answer,
  scores: json(r.scores),
  passed: r.passed,
  usage:
    r.prompt_tokens === null ? null : { promptTokens: Number(r.prompt_tokens), completionTokens: Number(r.completion_tokens ?? 0), totalTokens: Number(r.prompt_tokens) + Number(r.completion_tokens ?? 0) },
  cost: r.cost === null ? null : Number(r.cost),
  latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
  conversationId: r.conversation_id,
  messageId: r.message_id,
  error: r.error,
});

/** A result that can be claimed: pending, or claimed by a process whose claim lapsed. */
const CLAIMABLE = `(state = 'pending' OR (state = 'running' AND claimed_until < clock_timestamp()))`;

export class SqlEvaluationRunRepository implements EvaluationRunRepository {
  constructor(private readonly db: DataSource) {}

  async create(run: NewRun, items: DatasetItem[]): Promise<EvaluationRun> {
    return this.db.transaction(async (tx) => {
      const total = items.length * run.targets.length;
      const row = (await one<RunRow>(
        tx,
        `INSERT INTO evaluation_runs (application_id, dataset_id, dataset_version, name, targets, evaluators, pass_threshold, concurrency, trigger, total, created_by)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11) RETURNING ${RUN_COLUMNS}`,
        [run.applicationId, run.datasetId, run.datasetVersion, run.name, jsonb(run.targets), jsonb(run.evaluators), run.passThreshold, run.concurrency, run.trigger, total, run.createdBy],
      ))!;
      const pairs = items.flatMap((item) => run.targets.map((_, t) => ({ item: item.id, seq: item.seq, t })));
      for (let start = 0; start < pairs.length; start += 1000) {
        await affected(
          tx,
          `INSERT INTO evaluation_results (run_id, item_id, seq, target_index)
           SELECT $1, (e->>'item')::uuid, (e->>'seq')::int, (e->>'t')::int FROM jsonb_array_elements($2::jsonb) AS e`,
          [row.id, jsonb(pairs.slice(start, start + 1000))],
        );
      }
      return toRun(row);
    });
  }

  async findById(id: string): Promise<EvaluationRun | null> {
    const row = await one<RunRow>(this.db, `SELECT ${RUN_COLUMNS} FROM evaluation_runs WHERE id = $1`, [id]);
    return row ? toRun(row) : null;
  }

  async listByApplication(applicationId: string, limit: number): Promise<EvaluationRun[]> {
    return (await rows<RunRow>(this.db, `SELECT ${RUN_COLUMNS} FROM evaluation_runs WHERE application_id = $1 ORDER BY created_at DESC LIMIT $2`, [applicationId, limit])).map(toRun);
  }

  async results(runId: string): Promise<EvaluationResult[]> {
    return (await rows<ResultRow>(this.db, `SELECT ${RESULT_COLUMNS} FROM evaluation_results WHERE run_id = $1 ORDER BY seq, target_index`, [runId])).map(toResult);
  }

  async totals(runId: string): Promise<TargetTotals[]> {
    // Two aggregate statements however large the run: the results' sums per target, and the scores' per target and evaluator.
    const [targets, scores] = await Promise.all([
      rows<{ target_index: number; total: number; finished: number; passed: number; errors: number; answered: number; latency: number | null; tokens: number | null; cost: number | null; unpriced: number }>(
        this.db,
        `SELECT target_index, count(*)::int AS total,
                count(*) FILTER (WHERE state IN ('done', 'failed'))::int AS finished,
                count(*) FILTER (WHERE state IN ('done', 'failed') AND passed)::int AS passed,
                count(*) FILTER (WHERE state = 'failed')::int AS errors,
                count(*) FILTER (WHERE state = 'done')::int AS answered,
                sum(coalesce(latency_ms, 0)) FILTER (WHERE state = 'done')::float8 AS latency,
                sum(prompt_tokens + coalesce(completion_tokens, 0)) FILTER (WHERE state = 'done')::float8 AS tokens,
                sum(cost) FILTER (WHERE state = 'done') AS cost,
                count(*) FILTER (WHERE state = 'done' AND cost IS NULL)::int AS unpriced
           FROM evaluation_results WHERE run_id = $1 GROUP BY target_index`,
        [runId],
      ),
      rows<{ target_index: number; name: string; n: number; s: number; ss: number; ok: number }>(
        this.db,
        `SELECT r.target_index, e.value->>'evaluator' AS name, count(*)::int AS n,
                sum((e.value->>'score')::float8) AS s, sum(((e.value->>'score')::float8) ^ 2) AS ss,
                count(*) FILTER (WHERE (e.value->>'passed')::boolean)::int AS ok
           FROM evaluation_results r CROSS JOIN LATERAL jsonb_array_elements(r.scores) AS e(value)
          WHERE r.run_id = $1 AND r.state = 'done' GROUP BY 1, 2`,
        [runId],
      ),
    ]);
    return targets.map((t) => ({
      targetIndex: Number(t.target_index),
      total: Number(t.total),
      finished: Number(t.finished),
      passed: Number(t.passed),
      errors: Number(t.errors),
      answered: Number(t.answered),
      latencySum: Number(t.latency ?? 0),
      tokens: Number(t.tokens ?? 0),
      costSum: Number(t.cost ?? 0),
      unpriced: Number(t.unpriced),
      evaluators: new Map(
        scores.filter((s) => Number(s.target_index) === Number(t.target_index)).map((s) => [s.name, { n: Number(s.n), sum: Number(s.s), sumSquares: Number(s.ss), passed: Number(s.ok) }]),
      ),
    }));
  }

  async claimNext(runId: string, leaseMs: number): Promise<EvaluationResult | null> {
    const row = await one<ResultRow>(
      this.db,
      `UPDATE evaluation_results SET state = 'running', attempts = attempts + 1, claimed_until = clock_timestamp() + $2::int * interval '1 millisecond'
        WHERE id = (SELECT id FROM evaluation_results WHERE run_id = $1 AND ${CLAIMABLE} ORDER BY seq, target_index LIMIT 1 FOR UPDATE SKIP LOCKED)
          AND ${CLAIMABLE}
        RETURNING ${RESULT_COLUMNS}`,
      [runId, leaseMs],
    );
    return row ? toResult(row) : null;
  }

  async finishResult(resultId: string, o: ResultOutcome): Promise<boolean> {
    const n = o.ok
      ? await affected(
          this.db,
          `UPDATE evaluation_results SET state = 'done', claimed_until = NULL, answer = $2, scores = $3::jsonb, passed = $4, prompt_tokens = $5, completion_tokens = $6,
                  cost = $7, latency_ms = $8, conversation_id = $9, message_id = $10, error = NULL, finished_at = now()
            WHERE id = $1 AND state = 'running'`,
          [resultId, o.answer.replace(/\u0000/g, ''), jsonb(o.scores), o.passed, o.usage.promptTokens, o.usage.completionTokens, o.cost, Math.round(o.latencyMs), o.conversationId, o.messageId],
        )
      : await affected(
          this.db,
          `UPDATE evaluation_results SET state = 'failed', claimed_until = NULL, passed = false, error = $2, conversation_id = $3, finished_at = now() WHERE id = $1 AND state = 'running'`,
          [resultId, o.error.replace(/\u0000/g, ''), o.conversationId ?? null],
        );
    return n > 0;
  }

  async completeIfDone(runId: string): Promise<boolean> {
    return (
      (await affected(
        this.db,
        `UPDATE evaluation_runs SET status = 'completed', finished_at = now() WHERE id = $1 AND status = 'running'
            AND NOT EXISTS (SELECT 1 FROM evaluation_results WHERE run_id = $1 AND state IN ('pending', 'running'))`,
        [runId],
      )) > 0
    );
  }

  async end(runId: string, status: 'cancelled' | 'failed', error: string | null): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const n = await affected(tx, `UPDATE evaluation_runs SET status = $2, error = $3, finished_at = now() WHERE id = $1 AND status = 'running'`, [runId, status, error]);
      if (n === 0) return false;
      await affected(tx, `UPDATE evaluation_results SET state = 'cancelled', claimed_until = NULL WHERE run_id = $1 AND state IN ('pending', 'running')`, [runId]);
      return true;
    });
  }

  async status(runId: string): Promise<EvaluationRun['status'] | null> {
    return (await one<{ status: EvaluationRun['status'] }>(this.db, `SELECT status FROM evaluation_runs WHERE id = $1`, [runId]))?.status ?? null;
  }

  async running(limit: number): Promise<string[]> {
    return (await rows<{ id: string }>(this.db, `SELECT id FROM evaluation_runs WHERE status = 'running' ORDER BY created_at LIMIT $1`, [limit])).map((r) => r.id);
  }
}
