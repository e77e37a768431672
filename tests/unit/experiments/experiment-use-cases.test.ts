import { InMemoryExperimentRepository } from '../../../adapters/persistence/experiments/in-memory-experiment.repository';
import type { NewAuditRecord } from '../../../core/audit/domain/audit-record';
import type { AuditLog } from '../../../core/audit/ports/audit-log.port';
import type { NewDomainEvent } from '../../../core/events/domain/domain-event';
import type { GuardrailSample } from '../../../core/experiments/domain/decide';
import { momentsOf, type Moments } from '../../../core/experiments/domain/sequential-test';
import type { ArmObservations } from '../../../core/experiments/ports/arm-observations.port';
import { EvaluateExperimentsUseCase } from '../../../core/experiments/use-cases/evaluate-experiments.use-case';
import { GetExperimentUseCase } from '../../../core/experiments/use-cases/get-experiment.use-case';
import { PromoteExperimentUseCase } from '../../../core/experiments/use-cases/promote-experiment.use-case';
import { SetExperimentUseCase } from '../../../core/experiments/use-cases/set-experiment.use-case';
import { noUnitOfWork } from '../../../core/shared/unit-of-work.port';
import { aWorld, anActor, anApplication } from '../model-configs/model-configs.fixtures';

/** `n` observations cycling through `values`. */
const obs = (values: number[], n: number): Moments => momentsOf(Array.from({ length: n }, (_, i) => values[i % values.length]!));
const failures = (failed: number, n: number) => momentsOf(Array.from({ length: n }, (_, i) => (i < failed ? 1 : 0)));

/** The arms' observations a test reads, set by each test; `since` is recorded to check the start is asked for. */
class FixedObservations implements ArmObservations {
  goal = new Map<string, Moments>();
  guards = new Map<string, GuardrailSample>();
  asked: Date[] = [];
  async ratings(scope: { since: Date }) {
    this.asked.push(scope.since);
    return this.goal;
  }
  async costPerConversation() {
    return this.goal;
  }
  async guardrails() {
    return this.guards;
  }
}

async function aTest() {
  const world = aWorld();
  const actor = anActor();
  const app = await anApplication(world, actor);
  const config = await world.configs.create({ applicationId: app.id, name: 'Calm', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { temperature: 0.2, maxTokens: 2048, topP: 1 }, makeDefault: true });
  const version = await world.versions.create({ configId: config.id, applicationId: app.id, label: 'Warm', provider: 'provider_a', modelId: 'gpt-4o', settings: { temperature: 0.9, maxTokens: 2048, topP: 1 }, trafficShare: 5000, isActive: true });
  const audit: NewAuditRecord[] = [];
  const events: NewDomainEvent[] = [];
  const auditLog = { append: async (r: NewAuditRecord) => void audit.push(r) } as unknown as AuditLog;
  const published = new Set<string>();
  const eventPublisher = {
    publish: async (...es: NewDomainEvent[]) => {
      for (const e of es) if (!e.dedupeKey || !published.has(e.dedupeKey)) (published.add(e.dedupeKey ?? ''), events.push(e));
    },
  };
  let now = new Date('2026-11-29T10:00:00Z');
  const observations = new FixedObservations();
  const deps = {
    experiments: new InMemoryExperimentRepository(world.configs, world.versions),
    configs: world.configs,
    versions: world.versions,
    observations,
    audit: auditLog,
    events: eventPublisher,
    unitOfWork: noUnitOfWork,
    clock: { now: () => now },
  };
  return {
    world, actor, app, config, version, audit, events, observations, deps,
    tick: (ms: number) => (now = new Date(now.getTime() + ms)),
    set: new SetExperimentUseCase(deps),
    get: new GetExperimentUseCase(deps),
    promote: new PromoteExperimentUseCase(deps),
    evaluate: new EvaluateExperimentsUseCase(deps),
  };
}

describe('A/B tests that decide (core, in memory)', () => {
  it('records a winner once, promotes it when set to, and writes one audit record and one event per decision', async () => {
    const t = await aTest();
    const started = await t.set.execute(t.config.id, { goal: 'rating', minimumEffect: 0.5, autoPromote: true }, t.actor);
    expect(started).toMatchObject({ status: 'running', decision: 'running', significance: 0.05 });
    t.observations.goal = new Map([['control', obs([2, 3], 20)], [t.version.id, obs([4, 5], 20)]]);
    await t.evaluate.execute(t.app.id);
    await t.evaluate.execute(t.app.id);

    const view = await t.get.execute(t.config.id, t.actor);
    expect(view).toMatchObject({ status: 'promoted', decision: 'winner', winner: t.version.id });
    expect(t.observations.asked.every((since) => since.toISOString() === started.startedAt)).toBe(true);
    expect((await t.world.configs.findWithOwner(t.config.id))!.config).toMatchObject({ modelId: 'gpt-4o', settings: { temperature: 0.9 } });
    expect((await t.world.versions.findById(t.version.id))!.isActive).toBe(false);
    expect(t.audit.map((r) => [r.action, r.actorRole, r.resourceId])).toEqual([
      ['model_config.experiment_winner', 'system', t.config.id],
      ['model_config.experiment_promoted', 'system', t.config.id],
    ]);
    expect(t.events.map((e) => [e.type, e.data.decision, e.data.arm, e.data.automatic])).toEqual([
      ['experiment.decided', 'winner', t.version.id, true],
      ['experiment.decided', 'promoted', t.version.id, true],
    ]);
  });

  it('waits for a person to promote when not set to, and refuses a second promotion', async () => {
    const t = await aTest();
    await t.set.execute(t.config.id, { goal: 'thumbs_up_rate', minimumEffect: 0.2 }, t.actor);
    await expect(t.promote.execute(t.config.id, t.actor)).rejects.toMatchObject({ kind: 'conflict' });
    t.observations.goal = new Map([['control', obs([1, 0, 0, 0], 200)], [t.version.id, obs([1, 1, 1, 0], 200)]]);
    await t.evaluate.execute(t.app.id);
    expect((await t.get.execute(t.config.id, t.actor)).status).toBe('winner');
    expect((await t.world.versions.findById(t.version.id))!.isActive).toBe(true);
    expect(await t.promote.execute(t.config.id, t.actor)).toMatchObject({ status: 'promoted' });
    // A person's promotion is audited by the HTTP layer; the event says it was not automatic.
    expect(t.audit.map((r) => r.action)).toEqual(['model_config.experiment_winner']);
    expect(t.events.at(-1)!.data).toMatchObject({ decision: 'promoted', automatic: false });
    await expect(t.promote.execute(t.config.id, t.actor)).rejects.toMatchObject({ kind: 'conflict' });
    await expect(t.promote.execute(t.config.id, anActor())).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('switches off a challenger whose error rate is clearly worse, and leaves one that is not', async () => {
    const t = await aTest();
    await t.set.execute(t.config.id, { goal: 'rating', guardrails: ['error_rate'] }, t.actor);
    t.observations.guards = new Map([
      ['control', { errors: failures(2, 200), cost: momentsOf([]) }],
      [t.version.id, { errors: failures(3, 200), cost: momentsOf([]) }],
    ]);
    await t.evaluate.execute(t.app.id);
    expect((await t.world.versions.findById(t.version.id))!.isActive).toBe(true);
    t.observations.guards.set(t.version.id, { errors: failures(60, 200), cost: momentsOf([]) });
    await t.evaluate.execute(t.app.id);
    await t.evaluate.execute(t.app.id);
    expect((await t.world.versions.findById(t.version.id))!.isActive).toBe(false);
    const view = await t.get.execute(t.config.id, t.actor);
    expect(view.status).toBe('running');
    expect(view.arms.find((a) => a.arm === t.version.id)).toMatchObject({ rolledBack: 'error_rate', isActive: false });
    expect(t.events.map((e) => [e.data.decision, e.data.arm, e.data.guardrail])).toEqual([['rolled_back', t.version.id, 'error_rate']]);
    expect(t.audit.map((r) => r.action)).toEqual(['model_config.experiment_rolled_back']);
  });

  it('starts anew when what it measures changes, not when a switch changes', async () => {
    const t = await aTest();
    const first = await t.set.execute(t.config.id, { goal: 'rating' }, t.actor);
    expect(first).toMatchObject({ minimumEffect: 0.3, autoPromote: false, guardrails: [] });
    t.tick(60_000);
    const switched = await t.set.execute(t.config.id, { autoPromote: true, guardrails: ['cost', 'cost'] }, t.actor);
    expect(switched).toMatchObject({ startedAt: first.startedAt, autoPromote: true, guardrails: ['cost'] });
    t.tick(60_000);
    const changed = await t.set.execute(t.config.id, { minimumEffect: 0.4 }, t.actor);
    expect(changed.startedAt).not.toBe(first.startedAt);
    expect(changed).toMatchObject({ goal: 'rating', minimumEffect: 0.4, autoPromote: true });
    t.tick(60_000);
    expect((await t.set.execute(t.config.id, { restart: true }, t.actor)).startedAt).not.toBe(changed.startedAt);
  });

  it('refuses an evaluator goal while no evaluator can score live answers, and hides another user’s config', async () => {
    const t = await aTest();
    await expect(t.set.execute(t.config.id, { goal: 'evaluator_score', evaluatorId: '00000000-0000-4000-8000-000000000000' }, t.actor)).rejects.toMatchObject({ kind: 'validation' });
    await expect(t.get.execute(t.config.id, t.actor)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(t.set.execute(t.config.id, { goal: 'rating' }, anActor())).rejects.toMatchObject({ kind: 'not_found' });
  });
});
