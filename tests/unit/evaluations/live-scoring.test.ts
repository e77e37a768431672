import { AjvJsonSchemaValidator } from '../../../adapters/evaluations/ajv.json-schema-validator';
import { Re2RegexEngine } from '../../../adapters/evaluations/re2.regex-engine';
import { InMemoryLiveScoreRepository, InMemorySavedEvaluatorRepository, type StoredAnswer } from '../../../adapters/persistence/evaluations/in-memory-live-scores.repository';
import { InMemoryExperimentRepository } from '../../../adapters/persistence/experiments/in-memory-experiment.repository';
import type { AuditLog } from '../../../core/audit/ports/audit-log.port';
import type { JudgeModel } from '../../../core/evaluations/ports/evaluation-engines.port';
import {
  CreateSavedEvaluatorUseCase,
  DeleteSavedEvaluatorUseCase,
  ListSavedEvaluatorsUseCase,
  SampleLiveAnswerUseCase,
  ScoreLiveAnswersUseCase,
  StoredLiveAnswerScores,
} from '../../../core/evaluations/use-cases/live-scoring.use-cases';
import { EvaluateExperimentsUseCase } from '../../../core/experiments/use-cases/evaluate-experiments.use-case';
import { GetExperimentUseCase } from '../../../core/experiments/use-cases/get-experiment.use-case';
import { SetExperimentUseCase } from '../../../core/experiments/use-cases/set-experiment.use-case';
import { noUnitOfWork } from '../../../core/shared/unit-of-work.port';
import { aWorld, anActor, anApplication } from '../model-configs/model-configs.fixtures';
import { randomUUID } from 'node:crypto';

/** A judge that grades by what the answer says (5 for a warm answer, 2 otherwise), or fails when told to; it records each prompt. */
class GradingJudge implements JudgeModel {
  prompts: string[] = [];
  failing = false;
  async complete(request: { prompt: string }) {
    this.prompts.push(request.prompt);
    if (this.failing) throw new Error('The provider is down');
    const grade = /Answer to grade:\n.*warm/is.test(request.prompt) ? 5 : 2;
    return { text: `{"score": ${grade}, "reasoning": "graded"}`, usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } };
  }
}

async function aWorldWithTest() {
  const world = aWorld();
  const actor = anActor();
  const app = await anApplication(world, actor);
  const config = await world.configs.create({ applicationId: app.id, name: 'Brief', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { temperature: 0.2, maxTokens: 2048, topP: 1 }, makeDefault: true });
  const version = await world.versions.create({ configId: config.id, applicationId: app.id, label: 'Warm', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { temperature: 0.9, maxTokens: 2048, topP: 1 }, trafficShare: 5000, isActive: true });
  let now = new Date('2026-11-29T10:00:00Z');
  const clock = { now: () => now };
  const experiments = new InMemoryExperimentRepository(world.configs, world.versions);
  const evaluators = new InMemorySavedEvaluatorRepository();
  const scores = new InMemoryLiveScoreRepository({ experiments, versions: world.versions, evaluators, now: clock.now });
  const judge = new GradingJudge();
  const observed: string[] = [];
  const engines = { applications: world.applications, evaluators, regex: new Re2RegexEngine(), schemas: new AjvJsonSchemaValidator() };
  const live = new StoredLiveAnswerScores({ scores, evaluators });
  const deps = {
    experiments,
    configs: world.configs,
    versions: world.versions,
    observations: { ratings: async () => new Map(), costPerConversation: async () => new Map(), guardrails: async () => new Map() },
    scores: live,
    audit: { append: async () => undefined } as unknown as AuditLog,
    events: { publish: async () => undefined },
    unitOfWork: noUnitOfWork,
    clock,
  };
  let draws: number[] = [];
  let n = 0;
  /** An answer of an arm, given now. */
  const answer = (arm: string, text: string, extra: Partial<StoredAnswer> = {}) => {
    const messageId = randomUUID();
    scores.answers.set(messageId, {
      messageId, applicationId: app.id, arm, createdAt: now, complete: true,
      question: `Question ${++n}`, answer: text, provider: 'provider_a', model: 'gpt-4o-mini', latencyMs: 100, promptTokens: 10, completionTokens: 20, ...extra,
    });
    return messageId;
  };
  return {
    world, actor, app, config, version, scores, evaluators, judge, observed,
    tick: (ms: number) => (now = new Date(now.getTime() + ms)),
    setDraws: (d: number[]) => (draws = d),
    answer,
    create: new CreateSavedEvaluatorUseCase(engines),
    list: new ListSavedEvaluatorsUseCase(engines),
    remove: new DeleteSavedEvaluatorUseCase(engines),
    sample: new SampleLiveAnswerUseCase({ scores, clock, random: () => draws.shift() ?? 0 }),
    stableSample: new SampleLiveAnswerUseCase({ scores, clock }),
    scorer: (leaseMs?: number) => new ScoreLiveAnswersUseCase({ ...engines, scores, judge, observed: (id) => void observed.push(id) }, { leaseMs }),
    set: new SetExperimentUseCase(deps),
    get: new GetExperimentUseCase(deps),
    evaluate: new EvaluateExperimentsUseCase(deps),
  };
}

describe('live answers scored for A/B tests (core, in memory)', () => {
  it('keeps evaluators per application, refuses those that need an expected answer, and hides them from other users', async () => {
    const t = await aWorldWithTest();
    const kept = await t.create.execute(t.app.id, { type: 'regex', name: 'Greets', pattern: '^Hello' }, t.actor);
    expect(kept).toMatchObject({ name: 'Greets', evaluator: { type: 'regex', pattern: '^Hello', caseSensitive: false } });
    await expect(t.create.execute(t.app.id, { type: 'exact' }, t.actor)).rejects.toMatchObject({ kind: 'validation', details: [{ path: 'type' }] });
    await expect(t.create.execute(t.app.id, { type: 'regex', pattern: '(?<=a)b' }, t.actor)).rejects.toMatchObject({ kind: 'validation', details: [{ path: 'pattern' }] });
    await expect(t.list.execute(t.app.id, anActor())).rejects.toMatchObject({ kind: 'not_found' });
    await expect(t.remove.execute(t.app.id, kept.id, anActor())).rejects.toMatchObject({ kind: 'not_found' });
    expect((await t.list.execute(t.app.id, t.actor)).map((e) => e.id)).toEqual([kept.id]);
    await t.remove.execute(t.app.id, kept.id, t.actor);
    expect(await t.list.execute(t.app.id, t.actor)).toEqual([]);
  });

  it('samples answers of the arms at the test’s rate, at most samplesPerHour an hour, each answer once', async () => {
    const t = await aWorldWithTest();
    const evaluator = await t.create.execute(t.app.id, { type: 'contains', values: ['warm'] }, t.actor);
    const before = t.answer('control', 'from before the test');
    t.tick(1000);
    const test = await t.set.execute(t.config.id, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 0.5, samplesPerHour: 3 }, t.actor);
    expect(test).toMatchObject({ sampleRate: 0.5, samplesPerHour: 3 });
    expect(await t.sample.execute(before)).toEqual([]);
    // Draws under the rate are taken, those at or over it are not.
    t.setDraws([0.49, 0.5, 0.1, 0.9, 0.2, 0.3]);
    const ids = Array.from({ length: 6 }, (_, i) => t.answer(i % 2 ? t.version.id : 'control', 'an answer'));
    const taken: string[][] = [];
    for (const id of ids) taken.push(await t.sample.execute(id));
    // 0.49, 0.1 and 0.2 are under the rate; 0.3 would be too, but the hour's three are taken.
    expect(taken.map((x) => x.length)).toEqual([1, 0, 1, 0, 1, 0]);
    expect(t.scores.samples.map((s) => s.arm)).toEqual(['control', 'control', 'control']);
    // An hour later the cap has room again; an answer handed over twice is sampled once.
    t.tick(3_600_001);
    const later = t.answer(t.version.id, 'warm words');
    t.setDraws([0, 0]);
    expect(await t.sample.execute(later)).toEqual([test.id]);
    expect(await t.sample.execute(later)).toEqual([]);
    expect(t.scores.samples).toHaveLength(4);
    // Interrupted answers and answers of a version of another config are no candidates.
    expect(await t.sample.execute(t.answer('control', 'cut', { complete: false }))).toEqual([]);
    expect(await t.sample.execute(t.answer(randomUUID(), 'another config’s version'))).toEqual([]);
  });

  it('draws the same for an answer however often its event is handed over, when no random source is given', async () => {
    const t = await aWorldWithTest();
    const evaluator = await t.create.execute(t.app.id, { type: 'contains', values: ['warm'] }, t.actor);
    await t.set.execute(t.config.id, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 0.5, samplesPerHour: 10_000 }, t.actor);
    const ids = Array.from({ length: 200 }, () => t.answer('control', 'an answer'));
    for (const id of ids) await t.stableSample.execute(id);
    const first = new Set(t.scores.samples.map((s) => s.messageId));
    expect(first.size).toBeGreaterThan(60);
    expect(first.size).toBeLessThan(140);
    t.scores.samples.length = 0;
    for (const id of ids) await t.stableSample.execute(id);
    expect(new Set(t.scores.samples.map((s) => s.messageId))).toEqual(first);
  });

  it('scores each sample once with the judge, off the turn, and reaches a winner on evaluator_score', async () => {
    const t = await aWorldWithTest();
    const evaluator = await t.create.execute(t.app.id, { type: 'judge', provider: 'provider_b', model: 'claude-3-5-sonnet-20241022', rubric: 'Is it warm?', scaleMin: 1, scaleMax: 5 }, t.actor);
    const test = await t.set.execute(t.config.id, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1, samplesPerHour: 1000, minimumEffect: 0.2, autoPromote: false }, t.actor);
    for (let i = 0; i < 20; i++) {
      await t.sample.execute(t.answer('control', 'A brief answer.'));
      await t.sample.execute(t.answer(t.version.id, 'A warm answer.'));
    }
    expect(await t.scorer().execute(test.id)).toBe(40);
    expect(t.judge.prompts).toHaveLength(40);
    expect(t.judge.prompts[0]).toContain('Question 1');
    expect(t.judge.prompts[0]).toContain('Answer to grade:\nA brief answer.');
    expect(t.observed).toEqual([t.app.id]);
    expect(await t.scorer().execute(test.id)).toBe(0);
    expect(t.judge.prompts).toHaveLength(40);

    await t.evaluate.execute(t.app.id);
    const view = await t.get.execute(t.config.id, t.actor);
    expect(view).toMatchObject({ status: 'winner', winner: t.version.id });
    expect(view.arms.map((a) => [a.arm, a.observations, a.estimate?.estimate])).toEqual([
      ['control', 20, 0.25],
      [t.version.id, 20, 1],
    ]);
  });

  it('stores a failed judge as no observation, and takes up a sample whose claim lapsed (its process died) once', async () => {
    const t = await aWorldWithTest();
    const evaluator = await t.create.execute(t.app.id, { type: 'judge', provider: 'provider_b', model: 'claude-3-5-sonnet-20241022', rubric: 'Is it warm?' }, t.actor);
    const test = await t.set.execute(t.config.id, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1 }, t.actor);
    await t.sample.execute(t.answer('control', 'A brief answer.'));
    await t.sample.execute(t.answer('control', 'Another brief answer.'));
    t.judge.failing = true;
    expect(await t.scorer().execute(test.id)).toBe(0);
    expect(t.scores.samples.map((s) => [s.state, s.error])).toEqual([
      ['failed', 'The evaluator could not score this answer: The provider is down'],
      ['failed', 'The evaluator could not score this answer: The provider is down'],
    ]);
    expect((await t.get.execute(t.config.id, t.actor)).arms[0]!.observations).toBe(0);
    expect(t.observed).toEqual([]);

    // A process claims a sample and dies: nobody else takes it until the claim lapses, then one scorer does, once.
    t.judge.failing = false;
    await t.sample.execute(t.answer('control', 'A warm answer.'));
    expect(await t.scores.claimNext(test.id, 60_000)).not.toBeNull();
    expect(await t.scores.waiting(10)).toEqual([]);
    expect(await t.scorer().execute(test.id)).toBe(0);
    t.tick(60_001);
    expect(await t.scores.waiting(10)).toEqual([test.id]);
    expect(await t.scorer().execute(test.id)).toBe(1);
    expect(t.scores.samples.at(-1)).toMatchObject({ state: 'done', attempts: 2, score: 1, reason: '5 of 5: graded' });
    expect(t.judge.prompts).toHaveLength(3);
  });

  it('refuses an evaluator of another application as a test’s goal', async () => {
    const t = await aWorldWithTest();
    const other = await anApplication(t.world, t.actor);
    const foreign = await t.create.execute(other.id, { type: 'json' }, t.actor);
    await expect(t.set.execute(t.config.id, { goal: 'evaluator_score', evaluatorId: foreign.id }, t.actor)).rejects.toMatchObject({ kind: 'validation', details: [{ path: 'evaluatorId' }] });
  });
});
