import { randomUUID } from 'node:crypto';
import type { EvaluatorSpec } from '../../../core/evaluations/domain/evaluator';
import type { ClaimedSample, LiveAnswer, LiveSample, SampleOutcome, SavedEvaluator, ScoringCandidate } from '../../../core/evaluations/domain/live-scoring';
import type { LiveScoreRepository, SavedEvaluatorRepository } from '../../../core/evaluations/ports/live-scores.port';
import { CONTROL_ARM } from '../../../core/experiments/domain/experiment';
import { NO_MOMENTS, type Moments } from '../../../core/experiments/domain/sequential-test';
import type { ObservationScope } from '../../../core/experiments/ports/arm-observations.port';
import type { ConfigVersionRepository } from '../../../core/model-configs/ports/config-version-repository.port';
import type { InMemoryExperimentRepository } from '../experiments/in-memory-experiment.repository';

/** Kept evaluators in memory, for unit tests. */
export class InMemorySavedEvaluatorRepository implements SavedEvaluatorRepository {
  readonly kept = new Map<string, SavedEvaluator>();

  async create(e: { applicationId: string; name: string; spec: EvaluatorSpec }): Promise<SavedEvaluator> {
    const saved = { id: randomUUID(), ...e, createdAt: new Date() };
    this.kept.set(saved.id, saved);
    return structuredClone(saved);
  }
  async findById(id: string) {
    const found = this.kept.get(id);
    return found ? structuredClone(found) : null;
  }
  async listByApplication(applicationId: string) {
    return [...this.kept.values()].filter((e) => e.applicationId === applicationId).map((e) => structuredClone(e));
  }
  async delete(id: string) {
    return this.kept.delete(id);
  }
}

/** An answer as the in-memory store holds it: what the SQL store reads from `messages`. */
export interface StoredAnswer extends LiveAnswer {
  messageId: string;
  applicationId: string;
  /** `control` or the version id that gave it. */
  arm: string;
  createdAt: Date;
  complete: boolean;
}

interface Sample extends LiveSample {
  id: string;
  state: 'pending' | 'running' | 'done' | 'failed';
  claimedUntil: number | null;
  attempts: number;
  score: number | null;
  reason: string | null;
  error: string | null;
  createdAt: Date;
}

/**
 * Live answers and their samples in memory, for unit tests, with the SQL store's rules: candidates from the running
 * tests scored by an existing evaluator of the application, an hourly cap per test, one sample per evaluator and
 * answer, claims that lapse on the given clock.
 */
export class InMemoryLiveScoreRepository implements LiveScoreRepository {
  readonly answers = new Map<string, StoredAnswer>();
  readonly samples: Sample[] = [];

  constructor(
    private readonly deps: { experiments: InMemoryExperimentRepository; versions: ConfigVersionRepository; evaluators: SavedEvaluatorRepository; now: () => Date },
  ) {}

  async candidates(messageId: string): Promise<ScoringCandidate[]> {
    const answer = this.answers.get(messageId);
    if (!answer || !answer.complete) return [];
    const found: ScoringCandidate[] = [];
    for (const e of this.deps.experiments.tests.values()) {
      if (e.status !== 'running' || e.goal !== 'evaluator_score' || !e.evaluatorId || e.applicationId !== answer.applicationId || answer.createdAt < e.startedAt) continue;
      const evaluator = await this.deps.evaluators.findById(e.evaluatorId);
      if (!evaluator || evaluator.applicationId !== e.applicationId) continue;
      const ofTest = answer.arm === CONTROL_ARM || (await this.deps.versions.listByConfig(e.configId)).some((v) => v.id === answer.arm);
      if (!ofTest) continue;
      found.push({ experimentId: e.id, applicationId: e.applicationId, evaluatorId: e.evaluatorId, messageId, arm: answer.arm, sampleRate: e.sampleRate, samplesPerHour: e.samplesPerHour });
    }
    return found;
  }

  async enqueue(sample: LiveSample, samplesPerHour: number, now: Date): Promise<boolean> {
    const inHour = this.samples.filter((s) => s.experimentId === sample.experimentId && s.createdAt.getTime() > now.getTime() - 3_600_000).length;
    if (inHour >= samplesPerHour) return false;
    if (this.samples.some((s) => s.evaluatorId === sample.evaluatorId && s.messageId === sample.messageId)) return false;
    this.samples.push({ ...sample, id: randomUUID(), state: 'pending', claimedUntil: null, attempts: 0, score: null, reason: null, error: null, createdAt: now });
    return true;
  }

  async claimNext(experimentId: string, leaseMs: number): Promise<ClaimedSample | null> {
    const now = this.deps.now().getTime();
    const s = this.samples.find((x) => x.experimentId === experimentId && (x.state === 'pending' || (x.state === 'running' && x.claimedUntil! < now)));
    if (!s) return null;
    Object.assign(s, { state: 'running', claimedUntil: now + leaseMs, attempts: s.attempts + 1 });
    return { id: s.id, experimentId: s.experimentId, applicationId: s.applicationId, evaluatorId: s.evaluatorId, messageId: s.messageId, arm: s.arm, attempts: s.attempts };
  }

  async answer(messageId: string): Promise<LiveAnswer | null> {
    const a = this.answers.get(messageId);
    return a ? { question: a.question, answer: a.answer, provider: a.provider, model: a.model, latencyMs: a.latencyMs, promptTokens: a.promptTokens, completionTokens: a.completionTokens } : null;
  }

  async finish(sampleId: string, outcome: SampleOutcome): Promise<boolean> {
    const s = this.samples.find((x) => x.id === sampleId);
    if (!s || s.state !== 'running') return false;
    if (outcome.ok) Object.assign(s, { state: 'done', claimedUntil: null, score: outcome.score.score, reason: outcome.score.reason });
    else Object.assign(s, { state: 'failed', claimedUntil: null, error: outcome.error });
    return true;
  }

  async waiting(limit: number): Promise<string[]> {
    const now = this.deps.now().getTime();
    return [...new Set(this.samples.filter((s) => s.state === 'pending' || (s.state === 'running' && s.claimedUntil! < now)).map((s) => s.experimentId))].slice(0, limit);
  }

  async armScores(scope: ObservationScope, evaluatorId: string): Promise<Map<string, Moments>> {
    const arms = new Set([CONTROL_ARM, ...scope.versionIds]);
    const out = new Map<string, Moments>();
    for (const s of this.samples) {
      const answer = this.answers.get(s.messageId);
      if (s.state !== 'done' || s.evaluatorId !== evaluatorId || s.applicationId !== scope.applicationId || !answer || answer.createdAt < scope.since || !arms.has(s.arm)) continue;
      const m = out.get(s.arm) ?? NO_MOMENTS;
      out.set(s.arm, { n: m.n + 1, sum: m.sum + s.score!, sumSquares: m.sumSquares + s.score! * s.score! });
    }
    return out;
  }
}
