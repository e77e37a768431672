import type { PriceTable } from '../../ai/domain/model-catalog';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import { answerCost, defaultPrices } from '../../conversations/domain/answer-cost';
import type { Moments } from '../../experiments/domain/sequential-test';
import type { LiveAnswerScores, ObservationScope } from '../../experiments/ports/arm-observations.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { validate } from '../../shared/validation';
import { evaluatorSchema, toEvaluatorSpecs } from '../domain/evaluator';
import { LIVE_EVALUATOR_TYPES, type ClaimedSample, type SampleOutcome, type SavedEvaluator } from '../domain/live-scoring';
import type { JsonSchemaValidator, JudgeModel, RegexEngine, SimilarityEmbedder } from '../ports/evaluation-engines.port';
import type { LiveScoreRepository, SavedEvaluatorRepository } from '../ports/live-scores.port';
import { describeError, scoreOrThrow } from './score-answer';

/** The job that scores a test's waiting samples; its payload is the test's id. */
export const SCORE_LIVE_ANSWERS_JOB = 'evaluations.score-live';
export interface ScoreLiveAnswersJob {
  experimentId: string;
}

/** At most this many evaluators kept per application. */
export const MAX_SAVED_EVALUATORS = 50;

export interface SavedEvaluatorView {
  id: string;
  applicationId: string;
  name: string;
  evaluator: SavedEvaluator['spec'];
  createdAt: string;
}

const toView = (e: SavedEvaluator): SavedEvaluatorView => ({ id: e.id, applicationId: e.applicationId, name: e.name, evaluator: e.spec, createdAt: e.createdAt.toISOString() });

export interface SavedEvaluatorDeps {
  applications: ApplicationRepository;
  evaluators: SavedEvaluatorRepository;
  regex: RegexEngine;
  schemas: JsonSchemaValidator;
}

/** `GET /api/applications/:appId/evaluators`: the evaluators an A/B test of the application can score live answers with. */
export class ListSavedEvaluatorsUseCase {
  constructor(private readonly deps: SavedEvaluatorDeps) {}
  async execute(appId: string, actor: Actor): Promise<SavedEvaluatorView[]> {
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'read');
    return (await this.deps.evaluators.listByApplication(application.id)).map(toView);
  }
}

/** `POST /api/applications/:appId/evaluators`: keeps one evaluator (the fields of a run's evaluator) by name. */
export class CreateSavedEvaluatorUseCase {
  constructor(private readonly deps: SavedEvaluatorDeps) {}
  async execute(appId: string, input: unknown, actor: Actor): Promise<SavedEvaluatorView> {
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'write');
    const body = await validate(evaluatorSchema, input);
    if (!(LIVE_EVALUATOR_TYPES as readonly string[]).includes(body.type)) {
      throw ValidationError.field('type', `type must be one of ${LIVE_EVALUATOR_TYPES.join(', ')}: live answers have no expected answer to compare with`);
    }
    const [spec] = toEvaluatorSpecs([body], { compilePattern: (p, c) => this.deps.regex.compile(p, c), compileSchema: (s) => this.deps.schemas.compile(s) }, () => '');
    if ((await this.deps.evaluators.listByApplication(application.id)).length >= MAX_SAVED_EVALUATORS) {
      throw ValidationError.field('type', `An application keeps at most ${MAX_SAVED_EVALUATORS} evaluators`);
    }
    return toView(await this.deps.evaluators.create({ applicationId: application.id, name: spec!.name, spec: spec! }));
  }
}

/** `DELETE /api/applications/:appId/evaluators/:evaluatorId`: a test scored by it gets no more scores. */
export class DeleteSavedEvaluatorUseCase {
  constructor(private readonly deps: SavedEvaluatorDeps) {}
  async execute(appId: string, evaluatorId: unknown, actor: Actor): Promise<void> {
    const application = await findOwnedApplication(this.deps.applications, appId, actor, 'write');
    const found = isUuid(evaluatorId) ? await this.deps.evaluators.findById(evaluatorId) : null;
    if (!found || found.applicationId !== application.id) throw new NotFoundError('Evaluator');
    await this.deps.evaluators.delete(found.id);
  }
}

/**
 * Chooses which live answers are scored: on each completed answer (an event, handed over at least once), for every
 * running test scored by an evaluator whose arm gave it, a draw under the test's sampling rate, then a conditional
 * insert under its hourly cap. Returns the tests that got a sample (to be scored off the turn's path).
 */
export class SampleLiveAnswerUseCase {
  constructor(private readonly deps: { scores: LiveScoreRepository; clock: Clock; random?: () => number }) {}

  async execute(messageId: string): Promise<string[]> {
    const queued: string[] = [];
    for (const candidate of await this.deps.scores.candidates(messageId)) {
      // The draw is a pure function of the answer and the test when no source is given: an event handed over
      // twice draws the same, so a repeat neither adds a sample nor gives an answer a second chance.
      const draw = this.deps.random ? this.deps.random() : stableDraw(`${candidate.experimentId}:${messageId}`);
      if (draw >= candidate.sampleRate) continue;
      const { sampleRate: _rate, samplesPerHour, ...sample } = candidate;
      if (await this.deps.scores.enqueue(sample, samplesPerHour, this.deps.clock.now())) queued.push(candidate.experimentId);
    }
    return queued;
  }
}

/** A number in [0, 1) from a text, evenly spread (FNV-1a). */
function stableDraw(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

export interface LiveScoringDeps {
  scores: LiveScoreRepository;
  evaluators: SavedEvaluatorRepository;
  applications: ApplicationRepository;
  regex: RegexEngine;
  schemas: JsonSchemaValidator;
  judge?: JudgeModel;
  embedder?: SimilarityEmbedder;
  prices?: PriceTable;
  /** Asks for the application's tests to be evaluated again (new observations). */
  observed(applicationId: string): void;
}

const DEFAULT_LEASE_MS = 5 * 60_000;
/** Claims of one sample past which it is failed rather than scored again. */
const MAX_ATTEMPTS = 3;

/**
 * Scores a test's waiting samples one at a time with the test's evaluator, each claimed atomically with a lease (a
 * sample is scored once; one whose process died is taken up again once its claim lapses). A sample the evaluator
 * could not score (its model failed) is stored as failed and is no observation. The test is evaluated again after.
 */
export class ScoreLiveAnswersUseCase {
  private stopping = false;
  private readonly controller = new AbortController();

  constructor(private readonly deps: LiveScoringDeps, private readonly options: { leaseMs?: number } = {}) {}

  stop(): void {
    this.stopping = true;
    this.controller.abort();
  }

  async execute(experimentId: string): Promise<number> {
    let scored = 0;
    let applicationId: string | null = null;
    while (!this.stopping) {
      const sample = await this.deps.scores.claimNext(experimentId, this.options.leaseMs ?? DEFAULT_LEASE_MS);
      if (!sample) break;
      applicationId = sample.applicationId;
      const outcome = sample.attempts > MAX_ATTEMPTS ? { ok: false as const, error: 'Scoring this answer was interrupted too many times' } : await this.score(sample);
      if (this.stopping && !outcome.ok) break; // aborted by a stop: left claimed, taken up again after the lease
      if ((await this.deps.scores.finish(sample.id, outcome)) && outcome.ok) scored++;
    }
    if (scored > 0 && applicationId) this.deps.observed(applicationId);
    return scored;
  }

  private async score(sample: ClaimedSample): Promise<SampleOutcome> {
    const evaluator = await this.deps.evaluators.findById(sample.evaluatorId);
    if (!evaluator) return { ok: false, error: 'The evaluator no longer exists' };
    const answer = await this.deps.scores.answer(sample.messageId);
    if (!answer) return { ok: false, error: 'The answer no longer exists' };
    const usage = { promptTokens: answer.promptTokens, completionTokens: answer.completionTokens, totalTokens: answer.promptTokens + answer.completionTokens };
    try {
      const score = await scoreOrThrow(
        this.deps,
        evaluator.spec,
        { applicationId: sample.applicationId, question: answer.question },
        { answer: answer.answer, expected: null, latencyMs: answer.latencyMs, totalTokens: usage.totalTokens, cost: answerCost(this.deps.prices ?? defaultPrices(), { provider: answer.provider, model: answer.model, usage }) },
        this.controller.signal,
      );
      return { ok: true, score };
    } catch (error) {
      return { ok: false, error: `The evaluator could not score this answer: ${describeError(error)}` };
    }
  }
}

/** The `LiveAnswerScores` port of the experiments area, over the stored scores and the saved evaluators. */
export class StoredLiveAnswerScores implements LiveAnswerScores {
  constructor(private readonly deps: { scores: LiveScoreRepository; evaluators: SavedEvaluatorRepository }) {}

  scores(scope: ObservationScope, evaluatorId: string): Promise<Map<string, Moments>> {
    return this.deps.scores.armScores(scope, evaluatorId);
  }

  async usable(applicationId: string, evaluatorId: string): Promise<boolean> {
    const found = await this.deps.evaluators.findById(evaluatorId);
    return found !== null && found.applicationId === applicationId;
  }
}
