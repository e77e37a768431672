import type { ProviderId } from '../../ai/domain/provider-id';
import type { TokenUsage } from '../../ai/ports/llm-provider.port';
import type { EvaluatorSpec, Score } from './evaluator';
import { meanIntervalOf, wilsonInterval, type Interval } from './statistics';

/** What a run answers with (docs/evaluations.md "Targets"), as the caller names it. */
export type TargetRef =
  | { kind: 'config_version'; versionId: string }
  | { kind: 'model_config'; configId: string }
  | { kind: 'studio_draft' }
  | { kind: 'application'; applicationId: string };

/**
 * A target fixed when the run starts, so a change made meanwhile does not change the run: the application that
 * answers (whose tools and knowledge apply) and the provider, model and settings it answers with.
 * `template`: the instructions hold `{{placeholders}}` filled from `defaults` and the item's variables.
 */
export interface Target {
  ref: TargetRef;
  label: string;
  applicationId: string;
  provider: ProviderId;
  model: string;
  settings: Record<string, unknown>;
  template: boolean;
  defaults: Record<string, string>;
}

export type RunStatus = 'running' | 'completed' | 'cancelled' | 'failed';
export type ResultState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

export interface EvaluationRun {
  id: string;
  applicationId: string;
  datasetId: string;
  datasetVersion: number;
  name: string;
  targets: Target[];
  evaluators: EvaluatorSpec[];
  passThreshold: number | null;
  concurrency: number;
  status: RunStatus;
  trigger: 'console' | 'api';
  total: number;
  error: string | null;
  createdBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface EvaluationResult {
  id: string;
  runId: string;
  itemId: string;
  seq: number;
  targetIndex: number;
  state: ResultState;
  attempts: number;
  answer: string | null;
  scores: Score[];
  passed: boolean | null;
  usage: TokenUsage | null;
  cost: number | null;
  latencyMs: number | null;
  conversationId: string | null;
  messageId: string | null;
  error: string | null;
}

/** What answering and scoring one item against one target came to. */
export type ResultOutcome =
  | { ok: true; answer: string; scores: Score[]; passed: boolean; usage: TokenUsage; cost: number | null; latencyMs: number; conversationId: string; messageId: string }
  | { ok: false; error: string; conversationId?: string | null };

export const MAX_TARGETS = 4;
export const MAX_CONCURRENCY = 8;
export const DEFAULT_CONCURRENCY = 2;

export interface TargetSummary {
  index: number;
  label: string;
  ref: TargetRef;
  provider: ProviderId;
  model: string;
  total: number;
  finished: number;
  passed: number;
  failed: number;
  errors: number;
  /** Passed over finished (an error counts as not passed); null before the first finished item. */
  passRate: number | null;
  /** The Wilson 95% interval of the pass rate. */
  passRateInterval: Interval | null;
  evaluators: Array<{ name: string; type: string; mean: number | null; interval: Interval | null; passRate: number | null; passRateInterval: Interval | null }>;
  avgLatencyMs: number | null;
  totalTokens: number;
  totalCost: number | null;
}

export type Verdict = 'pending' | 'pass' | 'fail' | 'none';

/** Sums of one target's results: what its figures are computed from (in SQL for a stored run, or from results in memory). */
export interface TargetTotals {
  targetIndex: number;
  total: number;
  /** Done or failed. */
  finished: number;
  passed: number;
  /** Failed (no answer). */
  errors: number;
  /** Done (answered). */
  answered: number;
  latencySum: number;
  tokens: number;
  costSum: number;
  /** Answered results without a known cost. */
  unpriced: number;
  /** Per evaluator name: its scores' count, sum, sum of squares, and passes. */
  evaluators: Map<string, { n: number; sum: number; sumSquares: number; passed: number }>;
}

/** The sums of each target's results, in memory. */
export function totalsOf(run: EvaluationRun, results: EvaluationResult[]): TargetTotals[] {
  return run.targets.map((_, index) => {
    const mine = results.filter((r) => r.targetIndex === index);
    const finished = mine.filter((r) => r.state === 'done' || r.state === 'failed');
    const answered = finished.filter((r) => r.state === 'done');
    const evaluators = new Map<string, { n: number; sum: number; sumSquares: number; passed: number }>();
    for (const r of answered) {
      for (const e of run.evaluators) {
        const s = r.scores.find((x) => x.evaluator === e.name);
        if (!s) continue;
        const t = evaluators.get(e.name) ?? { n: 0, sum: 0, sumSquares: 0, passed: 0 };
        evaluators.set(e.name, { n: t.n + 1, sum: t.sum + s.score, sumSquares: t.sumSquares + s.score * s.score, passed: t.passed + (s.passed ? 1 : 0) });
      }
    }
    return {
      targetIndex: index,
      total: mine.length,
      finished: finished.length,
      passed: finished.filter((r) => r.passed === true).length,
      errors: finished.filter((r) => r.state === 'failed').length,
      answered: answered.length,
      latencySum: answered.reduce((s, r) => s + (r.latencyMs ?? 0), 0),
      tokens: answered.reduce((s, r) => s + (r.usage?.totalTokens ?? 0), 0),
      costSum: answered.reduce((s, r) => s + (r.cost ?? 0), 0),
      unpriced: answered.filter((r) => r.cost === null).length,
      evaluators,
    };
  });
}

/** Figures per target from its results' sums. */
export function summarizeTotals(run: EvaluationRun, totals: TargetTotals[]): TargetSummary[] {
  const byIndex = new Map(totals.map((t) => [t.targetIndex, t]));
  return run.targets.map((target, index) => {
    const t = byIndex.get(index) ?? { targetIndex: index, total: 0, finished: 0, passed: 0, errors: 0, answered: 0, latencySum: 0, tokens: 0, costSum: 0, unpriced: 0, evaluators: new Map() };
    return {
      index,
      label: target.label,
      ref: target.ref,
      provider: target.provider,
      model: target.model,
      total: t.total,
      finished: t.finished,
      passed: t.passed,
      failed: t.finished - t.passed,
      errors: t.errors,
      passRate: t.finished ? t.passed / t.finished : null,
      passRateInterval: wilsonInterval(t.passed, t.finished),
      evaluators: run.evaluators.map((e) => {
        const m = t.evaluators.get(e.name) ?? { n: 0, sum: 0, sumSquares: 0, passed: 0 };
        const mean = meanIntervalOf(m.n, m.sum, m.sumSquares);
        return { name: e.name, type: e.type, mean: mean?.mean ?? null, interval: mean?.interval ?? null, passRate: m.n ? m.passed / m.n : null, passRateInterval: wilsonInterval(m.passed, m.n) };
      }),
      avgLatencyMs: t.answered ? Math.round(t.latencySum / t.answered) : null,
      totalTokens: t.tokens,
      totalCost: t.answered && t.unpriced === 0 ? t.costSum : null,
    };
  });
}

/** Figures per target from its finished results. */
export const summarize = (run: EvaluationRun, results: EvaluationResult[]): TargetSummary[] => summarizeTotals(run, totalsOf(run, results));

/**
 * The gate's answer: `pass` when every target's pass rate reaches the threshold once the run completed, `fail`
 * when one does not (or the run failed or was cancelled), `pending` while it runs, `none` without a threshold.
 */
export function verdictOf(run: EvaluationRun, summaries: TargetSummary[]): Verdict {
  if (run.passThreshold === null) return 'none';
  if (run.status === 'running') return 'pending';
  if (run.status !== 'completed') return 'fail';
  return summaries.every((s) => s.passRate !== null && s.passRate >= run.passThreshold!) ? 'pass' : 'fail';
}

/** One row of a run's export: an item, a target, and one evaluator's verdict (none when the item failed). */
export interface ExportRow {
  item: number;
  input: string;
  expected: string | null;
  target: string;
  state: ResultState;
  answer: string | null;
  evaluator: string | null;
  type: string | null;
  score: number | null;
  passed: boolean | null;
  reason: string | null;
  latencyMs: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
  cost: number | null;
  error: string | null;
}

export const EXPORT_COLUMNS: Array<keyof ExportRow> = ['item', 'input', 'expected', 'target', 'state', 'answer', 'evaluator', 'type', 'score', 'passed', 'reason', 'latencyMs', 'promptTokens', 'completionTokens', 'cost', 'error'];

/** A run's results per item × target × evaluator, in item and target order. */
export function exportRows(run: EvaluationRun, results: EvaluationResult[], inputs: Map<string, { message: string; expected: string | null }>): ExportRow[] {
  const rows: ExportRow[] = [];
  const ordered = [...results].sort((a, b) => a.seq - b.seq || a.targetIndex - b.targetIndex);
  for (const r of ordered) {
    const item = inputs.get(r.itemId);
    const base = {
      item: r.seq,
      input: item?.message ?? '',
      expected: item?.expected ?? null,
      target: run.targets[r.targetIndex]?.label ?? String(r.targetIndex),
      state: r.state,
      answer: r.answer,
      latencyMs: r.latencyMs,
      promptTokens: r.usage?.promptTokens ?? null,
      completionTokens: r.usage?.completionTokens ?? null,
      cost: r.cost,
      error: r.error,
    };
    if (!r.scores.length) rows.push({ ...base, evaluator: null, type: null, score: null, passed: r.passed, reason: null });
    for (const s of r.scores) rows.push({ ...base, evaluator: s.evaluator, type: s.type, score: s.score, passed: s.passed, reason: s.reason });
  }
  return rows;
}

/**
 * A CSV cell. Text a spreadsheet would read as a formula (answers come from models and users) starts with a quote
 * mark, as OWASP advises against CSV injection; quotes, commas and line breaks are quoted.
 */
function exportCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let text = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const exportRowsToCsv = (rows: ExportRow[]): string =>
  [EXPORT_COLUMNS.join(','), ...rows.map((r) => EXPORT_COLUMNS.map((c) => exportCell(r[c])).join(','))].join('\r\n') + '\r\n';
