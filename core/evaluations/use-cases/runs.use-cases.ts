import * as yup from 'yup';
import { resolveModelSettings } from '../../ai/domain/model-settings';
import type { Application } from '../../applications/domain/application';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { ConfigVersionRepository } from '../../model-configs/ports/config-version-repository.port';
import type { ModelConfigRepository } from '../../model-configs/ports/model-config-repository.port';
import type { PromptTemplateRepository } from '../../prompts/ports/prompt-template-repository.port';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { JobQueue } from '../../shared/job-queue.port';
import { num, str, uuidField, validate } from '../../shared/validation';
import { initialConfig, type StudioConfig } from '../../studio/domain/studio-config';
import type { StudioRepository } from '../../studio/ports/studio-repository.port';
import { evaluatorsField, toEvaluatorSpecs } from '../domain/evaluator';
import {
  DEFAULT_CONCURRENCY,
  exportRows,
  exportRowsToCsv,
  MAX_CONCURRENCY,
  MAX_TARGETS,
  summarize,
  summarizeTotals,
  verdictOf,
  type EvaluationResult,
  type EvaluationRun,
  type Target,
  type TargetRef,
  type TargetTotals,
  type TargetSummary,
  type Verdict,
} from '../domain/run';
import type { JsonSchemaValidator, RegexEngine } from '../ports/evaluation-engines.port';
import type { EvaluationRunRepository } from '../ports/evaluation-repository.port';
import { datasetOf, evaluationApplication, type EvaluationAccessDeps } from './evaluation-deps';

/** The job that answers a run's items; its payload is the run's id only. */
export const RUN_EVALUATION_JOB = 'evaluations.run';
export interface RunEvaluationJob {
  runId: string;
}

export type RunDeps = EvaluationAccessDeps & {
  runs: EvaluationRunRepository;
  configs: ModelConfigRepository;
  versions: ConfigVersionRepository;
  templates: PromptTemplateRepository;
  studio: StudioRepository;
  regex: RegexEngine;
  schemas: JsonSchemaValidator;
  queue: Pick<JobQueue, 'enqueue'>;
};

const targetSchema = yup.object({
  kind: str().oneOf(['config_version', 'model_config', 'studio_draft', 'application'], 'kind must be config_version, model_config, studio_draft or application').required('kind is required'),
  versionId: uuidField('versionId'),
  configId: uuidField('configId'),
  applicationId: uuidField('applicationId'),
});

const startSchema = yup.object({
  datasetId: uuidField('datasetId').required('datasetId is required'),
  name: str().typeError('name must be text').max(120, 'name must be at most 120 characters'),
  targets: yup.array().typeError('targets must be a list').required('targets is required').min(1, 'targets must have at least one entry').max(MAX_TARGETS, `targets must have at most ${MAX_TARGETS} entries`).of(targetSchema.typeError('each target must be an object').required()),
  evaluators: evaluatorsField.required('evaluators is required'),
  passThreshold: num().typeError('passThreshold must be a number').min(0, 'passThreshold must be between 0 and 1').max(1, 'passThreshold must be between 0 and 1').nullable(),
  concurrency: num().typeError('concurrency must be a number').integer('concurrency must be a whole number').min(1, 'concurrency must be at least 1').max(MAX_CONCURRENCY, `concurrency must be at most ${MAX_CONCURRENCY}`),
});

export interface RunView {
  id: string;
  applicationId: string;
  datasetId: string;
  datasetVersion: number;
  name: string;
  status: EvaluationRun['status'];
  trigger: EvaluationRun['trigger'];
  passThreshold: number | null;
  concurrency: number;
  evaluators: EvaluationRun['evaluators'];
  total: number;
  finished: number;
  error: string | null;
  verdict: Verdict;
  targets: TargetSummary[];
  createdAt: string;
  finishedAt: string | null;
}

/** A run with its figures, from its results' sums per target (aggregated in the store, however large the run). */
export function toRunView(run: EvaluationRun, totals: TargetTotals[]): RunView {
  const targets = summarizeTotals(run, totals);
  return {
    id: run.id,
    applicationId: run.applicationId,
    datasetId: run.datasetId,
    datasetVersion: run.datasetVersion,
    name: run.name,
    status: run.status,
    trigger: run.trigger,
    passThreshold: run.passThreshold,
    concurrency: run.concurrency,
    evaluators: run.evaluators,
    total: run.total,
    finished: targets.reduce((s, t) => s + t.finished, 0),
    error: run.error,
    verdict: verdictOf(run, targets),
    targets,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

const fromStudioConfig = (config: StudioConfig, ref: TargetRef, label: string, applicationId: string): Target => ({
  ref,
  label,
  applicationId,
  provider: config.provider,
  model: config.modelId,
  settings: { ...config.settings, ...(config.instructions.trim() ? { systemPrompt: config.instructions } : {}) },
  template: true,
  defaults: { ...config.variables },
});

/**
 * `POST /api/applications/:appId/evaluations` (a session or an API key: the CI gate): a run of the dataset's
 * current version against the targets, each fixed now, with the evaluators; answered in the background.
 */
export class StartEvaluationRunUseCase {
  constructor(private readonly deps: RunDeps) {}

  async execute(appId: string, input: unknown, actor: Actor, trigger: 'console' | 'api' = 'console'): Promise<RunView> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const body = await validate(startSchema, input);
    const dataset = await datasetOf(this.deps, application, body.datasetId);
    const evaluators = toEvaluatorSpecs(body.evaluators, { compilePattern: (p, c) => this.deps.regex.compile(p, c), compileSchema: (s) => this.deps.schemas.compile(s) });
    evaluators.forEach((e, i) => {
      if (e.type === 'judge') resolveModelSettings(e.provider, e.model, {}, { provider: `evaluators[${i}].provider`, model: `evaluators[${i}].model`, settings: `evaluators[${i}]` });
    });
    const targets: Target[] = [];
    for (const [i, t] of body.targets.entries()) targets.push(await this.target(application, t, i, actor));
    const items = await this.deps.datasets.items(dataset.id, dataset.version);
    if (!items.length) throw ValidationError.field('datasetId', 'The dataset has no items yet');
    const run = await this.deps.runs.create(
      {
        applicationId: application.id,
        datasetId: dataset.id,
        datasetVersion: dataset.version,
        name: body.name?.trim() || `${dataset.name} v${dataset.version}`,
        targets,
        evaluators,
        passThreshold: body.passThreshold ?? null,
        concurrency: body.concurrency ?? DEFAULT_CONCURRENCY,
        trigger,
        createdBy: actor.userId,
      },
      items,
    );
    await this.deps.queue.enqueue<RunEvaluationJob>(RUN_EVALUATION_JOB, { runId: run.id }, { id: run.id });
    return toRunView(run, await this.deps.runs.totals(run.id));
  }

  private async target(application: Application, t: yup.InferType<typeof targetSchema>, i: number, actor: Actor): Promise<Target> {
    const field = (name: string) => {
      throw ValidationError.field(`targets[${i}].${name}`, `targets[${i}].${name} is required for this kind`);
    };
    switch (t.kind) {
      case 'config_version': {
        const id = t.versionId ?? field('versionId');
        const version = await this.deps.versions.findById(id);
        if (!version || version.applicationId !== application.id) throw new NotFoundError('Config version');
        const ref: TargetRef = { kind: 'config_version', versionId: version.id };
        return { ref, label: version.label ? `${version.version} · ${version.label}` : `Version ${version.version}`, applicationId: application.id, provider: version.provider, model: version.modelId, settings: { ...version.settings }, template: false, defaults: {} };
      }
      case 'model_config': {
        const id = t.configId ?? field('configId');
        const found = await this.deps.configs.findWithOwner(id);
        if (!found || found.config.applicationId !== application.id) throw new NotFoundError('Model config');
        const c = found.config;
        return { ref: { kind: 'model_config', configId: c.id }, label: c.name, applicationId: application.id, provider: c.provider, model: c.modelId, settings: { ...c.settings }, template: false, defaults: {} };
      }
      case 'studio_draft': {
        const stored = await this.deps.studio.findDraft(application.id);
        const config = stored?.config ?? (await this.liveConfig(application.id));
        return fromStudioConfig(config, { kind: 'studio_draft' }, 'Studio draft', application.id);
      }
      case 'application': {
        const id = t.applicationId ?? field('applicationId');
        // Another application of the same owner, which the caller may see: its live configuration, tools and knowledge answer.
        const other = await findOwnedApplication(this.deps.applications, id, actor, 'read');
        if (other.ownerId !== application.ownerId) throw new NotFoundError('Application');
        return fromStudioConfig(await this.liveConfig(other.id), { kind: 'application', applicationId: other.id }, other.name, other.id);
      }
      default:
        throw ValidationError.field(`targets[${i}].kind`, 'kind is not supported');
    }
  }

  private async liveConfig(applicationId: string): Promise<StudioConfig> {
    const live = await this.deps.configs.findDefault(applicationId);
    const template = live?.settings.systemPrompt ? null : await this.deps.templates.findDefault(applicationId);
    return initialConfig(live, template?.content ?? null);
  }
}

async function runOf(deps: RunDeps, appId: string, runId: unknown, actor: Actor, action: 'read' | 'write'): Promise<EvaluationRun> {
  const application = await evaluationApplication(deps, appId, actor, action);
  const run = isUuid(runId) ? await deps.runs.findById(runId) : null;
  if (!run || run.applicationId !== application.id) throw new NotFoundError('Evaluation run');
  return run;
}

export class ListEvaluationRunsUseCase {
  constructor(private readonly deps: RunDeps) {}
  async execute(appId: string, actor: Actor): Promise<RunView[]> {
    const application = await evaluationApplication(this.deps, appId, actor, 'read');
    const runs = await this.deps.runs.listByApplication(application.id, 50);
    return Promise.all(runs.map(async (r) => toRunView(r, await this.deps.runs.totals(r.id))));
  }
}

/** `GET …/evaluations/:runId`: progress, figures per target and, with a threshold, the gate's verdict. */
export class GetEvaluationRunUseCase {
  constructor(private readonly deps: RunDeps) {}
  async execute(appId: string, runId: string, actor: Actor): Promise<RunView> {
    const run = await runOf(this.deps, appId, runId, actor, 'read');
    return toRunView(run, await this.deps.runs.totals(run.id));
  }
}

export interface ResultView {
  itemId: string;
  seq: number;
  target: number;
  state: EvaluationResult['state'];
  input: unknown;
  expected: string | null;
  answer: string | null;
  passed: boolean | null;
  scores: EvaluationResult['scores'];
  promptTokens: number | null;
  completionTokens: number | null;
  cost: number | null;
  latencyMs: number | null;
  conversationId: string | null;
  messageId: string | null;
  error: string | null;
}

/** `GET …/evaluations/:runId/results`: per item and target, the answer, each evaluator's score and reason, and the usage. */
/** `GET …/evaluations/:runId/export?format=csv|json`: the results per item × target × evaluator, as a file. */
export class ExportEvaluationResultsUseCase {
  constructor(private readonly deps: RunDeps) {}
  async execute(appId: string, runId: string, format: unknown, actor: Actor): Promise<{ fileName: string; contentType: string; body: string }> {
    const run = await runOf(this.deps, appId, runId, actor, 'read');
    const chosen = format === undefined ? 'csv' : format;
    if (chosen !== 'csv' && chosen !== 'json') throw ValidationError.field('format', 'format must be csv or json');
    const [results, items] = await Promise.all([this.deps.runs.results(run.id), this.deps.datasets.items(run.datasetId, run.datasetVersion)]);
    const rows = exportRows(run, results, new Map(items.map((i) => [i.id, { message: i.input.message, expected: i.expected }])));
    const base = `${(run.name || 'evaluation').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'evaluation'}-${run.id.slice(0, 8)}`;
    return chosen === 'csv'
      ? { fileName: `${base}.csv`, contentType: 'text/csv; charset=utf-8', body: exportRowsToCsv(rows) }
      : { fileName: `${base}.json`, contentType: 'application/json; charset=utf-8', body: `${JSON.stringify({ runId: run.id, name: run.name, datasetVersion: run.datasetVersion, status: run.status, rows }, null, 2)}\n` };
  }
}

export class ListEvaluationResultsUseCase {
  constructor(private readonly deps: RunDeps) {}
  async execute(appId: string, runId: string, actor: Actor): Promise<ResultView[]> {
    const run = await runOf(this.deps, appId, runId, actor, 'read');
    const [results, items] = await Promise.all([this.deps.runs.results(run.id), this.deps.datasets.items(run.datasetId, run.datasetVersion)]);
    const byId = new Map(items.map((i) => [i.id, i]));
    return results.map((r) => ({
      itemId: r.itemId,
      seq: r.seq,
      target: r.targetIndex,
      state: r.state,
      input: byId.get(r.itemId)?.input ?? null,
      expected: byId.get(r.itemId)?.expected ?? null,
      answer: r.answer,
      passed: r.passed,
      scores: r.scores,
      promptTokens: r.usage?.promptTokens ?? null,
      completionTokens: r.usage?.completionTokens ?? null,
      cost: r.cost,
      latencyMs: r.latencyMs,
      conversationId: r.conversationId,
      messageId: r.messageId,
      error: r.error,
    }));
  }
}

export class CancelEvaluationRunUseCase {
  constructor(private readonly deps: RunDeps) {}
  async execute(appId: string, runId: string, actor: Actor): Promise<RunView> {
    const run = await runOf(this.deps, appId, runId, actor, 'write');
    await this.deps.runs.end(run.id, 'cancelled', null);
    return toRunView((await this.deps.runs.findById(run.id))!, await this.deps.runs.totals(run.id));
  }
}

const compareSchema = yup.object({
  runA: uuidField('runA').required('runA is required'),
  runB: uuidField('runB'),
  targetA: num().typeError('targetA must be a number').integer('targetA must be a whole number').min(0, 'targetA must be 0 or more').max(MAX_TARGETS - 1, 'targetA is out of range'),
  targetB: num().typeError('targetB must be a number').integer('targetB must be a whole number').min(0, 'targetB must be 0 or more').max(MAX_TARGETS - 1, 'targetB is out of range'),
});

export interface ComparisonView {
  a: { runId: string; target: number; label: string; passRate: number | null };
  b: { runId: string; target: number; label: string; passRate: number | null };
  /** Items both sides finished. */
  compared: number;
  /** Items that passed on A and fail on B. */
  regressions: number;
  /** Items that failed on A and pass on B. */
  improvements: number;
  changed: Array<{ itemId: string; seq: number; input: unknown; expected: string | null; a: ChangedSide; b: ChangedSide }>;
}
interface ChangedSide {
  passed: boolean;
  answer: string | null;
  scores: EvaluationResult['scores'];
}

/**
 * `GET …/evaluations/compare?runA=&targetA=&runB=&targetB=`: two runs, or two targets of one run, item by item,
 * listing the items whose verdict changed. Items are matched by id, so runs on different versions of a dataset
 * compare the items both had.
 */
export class CompareEvaluationRunsUseCase {
  constructor(private readonly deps: RunDeps) {}

  async execute(appId: string, query: Record<string, unknown>, actor: Actor): Promise<ComparisonView> {
    const numbers = Object.fromEntries(['targetA', 'targetB'].filter((k) => typeof query[k] === 'string' && query[k] !== '').map((k) => [k, /^\d{1,2}$/.test(query[k] as string) ? Number(query[k]) : query[k]]));
    const q = await validate(compareSchema, { runA: query.runA, runB: query.runB, ...numbers });
    const runA = await runOf(this.deps, appId, q.runA, actor, 'read');
    const runB = q.runB ? await runOf(this.deps, appId, q.runB, actor, 'read') : runA;
    const targetA = q.targetA ?? 0;
    const targetB = q.targetB ?? (runB === runA ? 1 : 0);
    if (targetA >= runA.targets.length) throw ValidationError.field('targetA', 'targetA is not a target of the run');
    if (targetB >= runB.targets.length) throw ValidationError.field('targetB', 'targetB is not a target of the run');
    if (runA.id === runB.id && targetA === targetB) throw ValidationError.field('targetB', 'Compare two different targets or two runs');
    const resultsA = await this.deps.runs.results(runA.id);
    const resultsB = runB.id === runA.id ? resultsA : await this.deps.runs.results(runB.id);
    const finished = (r: EvaluationResult) => r.state === 'done' || r.state === 'failed';
    const sideA = new Map(resultsA.filter((r) => r.targetIndex === targetA && finished(r)).map((r) => [r.itemId, r]));
    const sideB = resultsB.filter((r) => r.targetIndex === targetB && finished(r));
    const items = new Map((await this.deps.datasets.items(runA.datasetId, runA.datasetVersion)).map((i) => [i.id, i]));
    const changed: ComparisonView['changed'] = [];
    let compared = 0;
    let regressions = 0;
    let improvements = 0;
    for (const b of sideB) {
      const a = sideA.get(b.itemId);
      if (!a) continue;
      compared++;
      const pa = a.passed === true;
      const pb = b.passed === true;
      if (pa === pb) continue;
      if (pa) regressions++;
      else improvements++;
      const item = items.get(b.itemId);
      changed.push({ itemId: b.itemId, seq: b.seq, input: item?.input ?? null, expected: item?.expected ?? null, a: { passed: pa, answer: a.answer, scores: a.scores }, b: { passed: pb, answer: b.answer, scores: b.scores } });
    }
    changed.sort((x, y) => x.seq - y.seq);
    const sumA = summarize(runA, resultsA)[targetA]!;
    const sumB = summarize(runB, resultsB)[targetB]!;
    return {
      a: { runId: runA.id, target: targetA, label: sumA.label, passRate: sumA.passRate },
      b: { runId: runB.id, target: targetB, label: sumB.label, passRate: sumB.passRate },
      compared,
      regressions,
      improvements,
      changed,
    };
  }
}
