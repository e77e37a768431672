import { startEmulator, type Emulator } from '../../../support/emulator/emulator';
import { paidUserWithApplication, startCoreApi, type TestStack } from '../../../support/test-stack';
import { waitFor } from '../../../support/wait-for';

const JUDGE_REPLY = '{"score": 4, "reasoning": "Polite and on topic."}';
const QUESTION = 'How do I reset my password?';

describe('A/B tests scored by an evaluator on sampled live answers (HTTP)', () => {
  let stack: TestStack;
  let judge: Emulator;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;

  beforeAll(async () => {
    // The judge's provider (provider_b) is a second emulator that grades every answer 4 of 5.
    judge = await startEmulator();
    judge.behaviour.reply = JUDGE_REPLY;
    stack = await startCoreApi({ providers: true, engine: 'in-process', env: { PROVIDER_B_BASE_URL: judge.baseUrls.provider_b } });
    owner = await paidUserWithApplication(stack, 'enterprise');
  });
  afterAll(async () => {
    await stack?.close();
    await judge?.close();
  });

  const post = (path: string, body: unknown, token = owner.token) => stack.client.post(path, body, { token });
  const put = (path: string, body: unknown, token = owner.token) => stack.client.put(path, body, { token });
  const get = (path: string, token = owner.token) => stack.client.get(path, { token });

  /** A new application whose config (the control, "Be brief.") has a challenger ("Be warm.") taking no traffic yet. */
  async function aTest() {
    const app = (await post('/api/applications', { name: 'Scored A/B' })).body as { id: string };
    const config = (await post('/api/model-configs', { applicationId: app.id, name: 'Brief', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { systemPrompt: 'Be brief.' } })).body;
    const version = (await post(`/api/model-configs/${config._id}/versions`, { label: 'Warm', settings: { systemPrompt: 'Be warm.' }, trafficPercent: 0 })).body;
    expect(version._id).toEqual(expect.any(String));
    return { app, config, version, experiment: `/api/model-configs/${config._id}/experiment` };
  }

  /** `n` answers in one new conversation (a conversation keeps the arm it was given). */
  async function answers(applicationId: string, n: number) {
    const conversation = (await post('/api/conversations', { applicationId })).body.id as string;
    for (let i = 0; i < n; i++) expect((await post(`/api/conversations/${conversation}/messages`, { content: QUESTION })).status).toBe(200);
  }

  const samples = async (experimentId: string) =>
    (await stack.infra.dataSource.query(`SELECT arm, state, score, reason FROM live_answer_scores WHERE experiment_id = $1 ORDER BY created_at`, [experimentId])) as Array<{ arm: string; state: string; score: number; reason: string }>;

  it('keeps evaluators by name for live answers, refusing those that need an expected answer and hostile input', async () => {
    const { app } = await aTest();
    const base = `/api/applications/${app.id}/evaluators`;
    const created = await post(base, { type: 'contains', name: 'Warmth', values: ['warm'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), applicationId: app.id, name: 'Warmth', evaluator: { type: 'contains', mode: 'any', values: ['warm'], caseSensitive: false } });
    const bad = [
      [{ type: 'exact' }, 'type'],
      [{ type: 'similarity' }, 'type'],
      [{ type: 'contains' }, 'values'],
      [{ type: 'regex', pattern: '(' }, 'pattern'],
      [{ type: 'judge', provider: 'provider_b', model: 'claude-3-5-sonnet-20241022' }, 'rubric'],
      [{ type: 'nope' }, 'type'],
    ] as const;
    for (const [body, path] of bad) {
      const res = await post(base, body);
      expect([JSON.stringify(body), res.status, res.body.details?.map((d: { path: string }) => d.path)]).toEqual([JSON.stringify(body), 400, [path]]);
    }
    expect((await get(base)).body.map((e: { name: string }) => e.name)).toEqual(['Warmth']);
    // Another user sees neither the list nor the evaluator.
    const stranger = await paidUserWithApplication(stack);
    expect((await get(base, stranger.token)).status).toBe(404);
    expect((await stack.client.delete(`${base}/${created.body.id}`, { token: stranger.token })).status).toBe(404);
    expect((await stack.client.delete(`${base}/${created.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.delete(`${base}/${created.body.id}`, { token: owner.token })).status).toBe(404);
  });

  it('scores sampled answers of each arm with a contains evaluator and reaches "winner" on evaluator_score', async () => {
    const { app, config, version, experiment } = await aTest();
    // An answer from before the test: never sampled.
    await answers(app.id, 1);
    const evaluator = (await post(`/api/applications/${app.id}/evaluators`, { type: 'contains', name: 'Warmth', values: ['warm'] })).body;
    // Another application's evaluator cannot be chosen.
    const other = await aTest();
    const foreign = (await post(`/api/applications/${other.app.id}/evaluators`, { type: 'contains', values: ['x'] })).body;
    const refused = await put(experiment, { goal: 'evaluator_score', evaluatorId: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((d: { path: string }) => d.path)).toEqual(['evaluatorId']);
    expect((await put(experiment, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 0 })).status).toBe(400);
    expect((await put(experiment, { goal: 'evaluator_score', evaluatorId: evaluator.id, samplesPerHour: 0.5 })).status).toBe(400);

    const set = await put(experiment, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1, samplesPerHour: 1000, minimumEffect: 0.2, autoPromote: true });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1, samplesPerHour: 1000, status: 'running' });

    await answers(app.id, 20);
    expect((await put(`/api/model-configs/${config._id}/versions/${version._id}`, { trafficPercent: 100 })).status).toBe(200);
    await answers(app.id, 20);

    await waitFor(async () => (await get(experiment)).body.status === 'promoted', 30_000);
    const view = (await get(experiment)).body;
    expect(view).toMatchObject({ decision: 'winner', winner: version._id });
    const [control, challenger] = view.arms;
    expect(control).toMatchObject({ arm: 'control', observations: 20, estimate: { estimate: 0 } });
    expect(challenger).toMatchObject({ arm: version._id, observations: 20, estimate: { estimate: 1 }, difference: { estimate: 1, verdict: 'better' } });

    // Each answer of the test was sampled once and scored, with the evaluator's reason kept beside the score.
    const stored = await samples(view.id);
    expect(stored).toHaveLength(40);
    expect(stored.every((s) => s.state === 'done')).toBe(true);
    expect(stored.filter((s) => s.arm === version._id).map((s) => [s.score, s.reason])).toEqual(Array(20).fill([1, 'Contains "warm"']));
    const audit = (await get(`/api/audit?application=${app.id}&resource=model_config&limit=100`)).body as Array<{ action: string; details: Record<string, unknown> }>;
    expect(audit.find((r) => r.action === 'model_config.experiment_winner')!.details).toMatchObject({ goal: 'evaluator_score', arm: version._id });
  });

  it('scores with the judge on the provider emulator: equal grades end in "no difference", and the judge reads only the answer it grades', async () => {
    const { app, config, version, experiment } = await aTest();
    const evaluator = (
      await post(`/api/applications/${app.id}/evaluators`, { type: 'judge', name: 'Tone', provider: 'provider_b', model: 'claude-3-5-sonnet-20241022', rubric: 'Is the answer polite?', scaleMin: 1, scaleMax: 5 })
    ).body;
    expect(evaluator.evaluator).toMatchObject({ type: 'judge', scaleMin: 1, scaleMax: 5, passScore: 3 });
    judge.requests.length = 0;
    expect((await put(experiment, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1, samplesPerHour: 1000, minimumEffect: 0.3 })).status).toBe(200);
    await answers(app.id, 20);
    await put(`/api/model-configs/${config._id}/versions/${version._id}`, { trafficPercent: 100 });
    await answers(app.id, 20);
    await waitFor(async () => (await get(experiment)).body.status !== 'running', 30_000);
    const view = (await get(experiment)).body;
    expect(view).toMatchObject({ status: 'no_difference', decision: 'no_difference', winner: null });
    expect(view.arms.map((a: { observations: number; estimate: { estimate: number } }) => [a.observations, a.estimate.estimate])).toEqual([
      [20, 0.75],
      [20, 0.75],
    ]);
    const graded = judge.requests.filter((r) => r.method === 'POST');
    expect(graded).toHaveLength(40);
    const prompts = graded.map((r) => JSON.stringify(r.body));
    expect(prompts.every((p) => p.includes(QUESTION) && p.includes('Is the answer polite?'))).toBe(true);
    expect(prompts.filter((p) => p.includes('[system: Be warm.]'))).toHaveLength(20);
    expect((await samples(view.id)).map((s) => s.reason)).toEqual(Array(40).fill('4 of 5: Polite and on topic.'));
  });

  it('samples at the set rate and never more than samplesPerHour in an hour', async () => {
    const { app, experiment } = await aTest();
    const evaluator = (await post(`/api/applications/${app.id}/evaluators`, { type: 'contains', values: ['warm'] })).body;
    const capped = (await put(experiment, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1, samplesPerHour: 3 })).body;
    await answers(app.id, 6);
    // A second test (another config of another application) with a sample rate of 1: once its answer is scored,
    // the events of the first six answers, handed over before it, have been handled too.
    const marker = await aTest();
    const markerEvaluator = (await post(`/api/applications/${marker.app.id}/evaluators`, { type: 'contains', values: ['brief'] })).body;
    const markerTest = (await put(marker.experiment, { goal: 'evaluator_score', evaluatorId: markerEvaluator.id, sampleRate: 1 })).body;
    await answers(marker.app.id, 1);
    await waitFor(async () => (await samples(markerTest.id)).some((s) => s.state === 'done'), 30_000);
    await waitFor(async () => (await samples(capped.id)).every((s) => s.state === 'done'), 30_000);
    expect(await samples(capped.id)).toHaveLength(3);
    await waitFor(async () => (await get(experiment)).body.arms[0].observations === 3, 30_000);

    // A rate of a half takes some answers and leaves others (the draw is fixed per answer and test).
    const half = await aTest();
    const halfEvaluator = (await post(`/api/applications/${half.app.id}/evaluators`, { type: 'contains', values: ['warm'] })).body;
    const halfTest = (await put(half.experiment, { goal: 'evaluator_score', evaluatorId: halfEvaluator.id, sampleRate: 0.5, samplesPerHour: 1000 })).body;
    await answers(half.app.id, 30);
    await answers(marker.app.id, 1);
    await waitFor(async () => (await samples(markerTest.id)).filter((s) => s.state === 'done').length === 2, 30_000);
    const taken = (await samples(halfTest.id)).length;
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(30);
  });

  it('takes up a sample whose process died while scoring it (its claim lapsed) once, through the sweep', async () => {
    const { app, experiment } = await aTest();
    const evaluator = (await post(`/api/applications/${app.id}/evaluators`, { type: 'contains', values: ['brief'] })).body;
    const test = (await put(experiment, { goal: 'evaluator_score', evaluatorId: evaluator.id, sampleRate: 1 })).body;
    await answers(app.id, 1);
    await waitFor(async () => (await samples(test.id)).some((s) => s.state === 'done'), 30_000);
    // As a process that claimed the sample and died leaves it: claimed, its claim run out, no job queued for it.
    await stack.infra.dataSource.query(`UPDATE live_answer_scores SET state = 'running', score = NULL, reason = NULL, claimed_until = now() - interval '1 second' WHERE experiment_id = $1`, [test.id]);
    await waitFor(async () => (await samples(test.id)).every((s) => s.state === 'done'), 30_000);
    const [row] = (await stack.infra.dataSource.query(`SELECT state, attempts, score FROM live_answer_scores WHERE experiment_id = $1`, [test.id])) as Array<{ state: string; attempts: number; score: number }>;
    expect(row).toEqual({ state: 'done', attempts: 2, score: 1 });
    expect((await get(experiment)).body.arms[0]).toMatchObject({ observations: 1, estimate: { estimate: 1 } });
  });
});
