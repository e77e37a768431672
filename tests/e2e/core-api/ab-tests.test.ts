import { DATABASE_KINDS } from '../../support/test-database';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { waitFor } from '../../support/wait-for';
import { WebhookReceiver } from '../../support/webhook-receiver';

type Session = Awaited<ReturnType<typeof registerUser>>;

describe.each(DATABASE_KINDS)('core API: A/B tests that decide (%s)', (database) => {
  let stack: TestStack;
  let owner: Session;
  let stranger: Session;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    receiver = await WebhookReceiver.start();
    owner = await registerUser(stack.client);
    stranger = await registerUser(stack.client);
    await stack.setPlan(owner.user.id, 'enterprise');
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  const token = () => owner.access_token;
  const post = (path: string, body: unknown, t = token()) => stack.client.post(path, body, { token: t });
  const put = (path: string, body: unknown, t = token()) => stack.client.put(path, body, { token: t });
  const get = (path: string, t = token()) => stack.client.get(path, { token: t });

  /** An application whose config (the control) has one challenger version taking no traffic yet. */
  async function aTest() {
    const app = (await post('/api/applications', { name: 'A/B app' })).body as { id: string };
    const config = (await post('/api/model-configs', { applicationId: app.id, name: 'Calm', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { temperature: 0.2 } })).body;
    const version = (await post(`/api/model-configs/${config._id}/versions`, { label: 'Warm', settings: { temperature: 0.9, systemPrompt: 'Be warm.' }, trafficPercent: 0 })).body;
    expect(version._id).toEqual(expect.any(String));
    return { app, config, version, experiment: `/api/model-configs/${config._id}/experiment` };
  }

  /** Answers in a new conversation of the application, each rated through the rating route. */
  async function ratedAnswers(applicationId: string, ratings: number[]) {
    const conversation = (await post('/api/conversations', { applicationId })).body.id as string;
    for (const rating of ratings) {
      const answer = await post(`/api/conversations/${conversation}/messages`, { content: 'How do I reset my password?' });
      expect(answer.status).toBe(200);
      expect((await post(`/api/conversations/${conversation}/messages/${answer.body.message.id}/rating`, { rating })).status).toBe(200);
    }
    return conversation;
  }

  const alternating = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? b : a));

  it('reaches "winner" on a clear difference in ratings and, set to promote itself, makes the winner the config with an audit record and an experiment.decided event', async () => {
    const { app, config, version, experiment } = await aTest();
    const hook = await post('/api/webhooks', { url: receiver.url, events: ['experiment.decided'], applicationId: app.id });
    expect(hook.status).toBe(201);
    // Answers from before the test began, rated 5: never observations of the control arm.
    await ratedAnswers(app.id, [5, 5, 5]);

    const set = await put(experiment, { goal: 'rating', minimumEffect: 0.5, significance: 0.05, autoPromote: true, guardrails: ['error_rate'] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ goal: 'rating', minimumEffect: 0.5, significance: 0.05, autoPromote: true, status: 'running', decision: 'running', winner: null });
    expect(set.body.arms.map((a: { arm: string; observations: number }) => [a.arm, a.observations])).toEqual([['control', 0], [version._id, 0]]);
    expect((await post(`${experiment}/promote`, {})).status).toBe(409);

    await ratedAnswers(app.id, alternating(2, 3, 20));
    expect((await put(`/api/model-configs/${config._id}/versions/${version._id}`, { trafficPercent: 100 })).status).toBe(200);
    await ratedAnswers(app.id, alternating(4, 5, 20));

    await waitFor(async () => (await get(experiment)).body.status === 'promoted', 20_000);
    const view = (await get(experiment)).body;
    expect(view).toMatchObject({ status: 'promoted', decision: 'winner', winner: version._id, decidedAt: expect.any(String), promotedAt: expect.any(String) });
    const [control, challenger] = view.arms;
    expect(control).toMatchObject({ arm: 'control', isControl: true, observations: 20, estimate: { estimate: 2.5 } });
    expect(challenger).toMatchObject({ arm: version._id, label: 'Warm', observations: 20, estimate: { estimate: 4.5 }, difference: { estimate: 2, verdict: 'better' } });
    expect(challenger.difference.low).toBeGreaterThan(0);
    expect(challenger.estimate.low).toBeLessThan(4.5);

    // The winner's setup is the config's now, and the test's versions are switched off.
    const promoted = (await get(`/api/model-configs/${config._id}`)).body;
    expect(promoted).toMatchObject({ isDefault: true, provider: 'provider_a', modelId: 'gpt-4o-mini', settings: expect.objectContaining({ temperature: 0.9, systemPrompt: 'Be warm.' }) });
    expect((await get(`/api/model-configs/${config._id}/versions`)).body.map((v: { isActive: boolean }) => v.isActive)).toEqual([false]);

    const audit = (await get(`/api/audit?application=${app.id}&resource=model_config&limit=100`)).body as Array<{ action: string; actorRole: string; details: Record<string, unknown> }>;
    const decisions = audit.filter((r) => r.action.startsWith('model_config.experiment_') && r.actorRole === 'system');
    expect(decisions.map((r) => r.action).sort()).toEqual(['model_config.experiment_promoted', 'model_config.experiment_winner']);
    expect(decisions.find((r) => r.action === 'model_config.experiment_winner')!.details).toMatchObject({ arm: version._id, goal: 'rating', automatic: true });
    expect(audit.map((r) => r.action)).toContain('model_config.experiment_update');

    await waitFor(() => receiver.received.filter((r) => JSON.parse(r.body).data.configId === config._id).length >= 2, 20_000);
    const events = receiver.verified(hook.body.secret).filter((e) => e.data.configId === config._id);
    expect(events.map((e) => [e.type, e.data.decision, e.data.arm])).toEqual([
      ['experiment.decided', 'winner', version._id],
      ['experiment.decided', 'promoted', version._id],
    ]);

    // Decided once: evaluating again changes nothing.
    await ratedAnswers(app.id, [1]);
    expect((await get(experiment)).body.decidedAt).toBe(view.decidedAt);
  });

  it('never names a winner when the arms do not differ, and ends in "no difference" without promoting', async () => {
    const { app, config, version, experiment } = await aTest();
    expect((await put(experiment, { goal: 'rating', minimumEffect: 1, autoPromote: true })).status).toBe(200);
    await ratedAnswers(app.id, alternating(3, 4, 20));
    await put(`/api/model-configs/${config._id}/versions/${version._id}`, { trafficPercent: 100 });
    await ratedAnswers(app.id, alternating(4, 3, 20));
    await waitFor(async () => (await get(experiment)).body.status !== 'running', 20_000);
    const view = (await get(experiment)).body;
    expect(view).toMatchObject({ status: 'no_difference', decision: 'no_difference', winner: null });
    expect(view.arms[1].difference).toMatchObject({ estimate: 0, verdict: 'equivalent' });
    expect(view.arms[1].difference.low).toBeGreaterThan(-1);
    expect(view.arms[1].difference.high).toBeLessThan(1);
    expect((await post(`${experiment}/promote`, {})).status).toBe(409);
    expect((await get(`/api/model-configs/${config._id}`)).body.settings.temperature).toBe(0.2);
    expect((await get(`/api/model-configs/${config._id}/versions`)).body[0].isActive).toBe(true);
  });

  it("refuses bad settings with a clear 400, answers 404 for a config without a test or another user's", async () => {
    const { app, experiment } = await aTest();
    expect((await get(experiment)).status).toBe(404);
    const bad = [
      [{}, 'goal'],
      [{ goal: 'happiness' }, 'goal'],
      [{ goal: 'rating', significance: 0.5 }, 'significance'],
      [{ goal: 'rating', minimumEffect: -1 }, 'minimumEffect'],
      [{ goal: 'rating', minimumEffect: 5 }, 'minimumEffect'],
      [{ goal: 'thumbs_up_rate', guardrails: ['latency'] }, 'guardrails[0]'],
      [{ goal: 'rating', autoPromote: 'yes' }, 'autoPromote'],
      [{ goal: 'evaluator_score', evaluatorId: '00000000-0000-4000-8000-000000000000' }, 'evaluatorId'],
      [{ goal: 'evaluator_score' }, 'evaluatorId'],
      [{ goal: 'rating', sampleRate: 2 }, 'sampleRate'],
      [{ goal: 'rating', samplesPerHour: 0 }, 'samplesPerHour'],
    ] as const;
    for (const [body, path] of bad) {
      const res = await put(experiment, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
    expect((await put(experiment, { goal: 'thumbs_up_rate' })).body).toMatchObject({ goal: 'thumbs_up_rate', minimumEffect: 0.05, significance: 0.05, autoPromote: false, guardrails: [] });
    // Cost per conversation: each conversation since the start, priced from its answers' tokens.
    expect((await put(experiment, { goal: 'cost_per_conversation', guardrails: ['cost', 'error_rate'] })).body).toMatchObject({ minimumEffect: 0.001, decision: 'running' });
    const conversation = await ratedAnswers(app.id, [4, 4]);
    const [priced] = await stack.infra.dataSource.query(
      `SELECT sum(prompt_tokens * 0.15 / 1e6 + completion_tokens * 0.6 / 1e6)::float8 AS cost FROM messages WHERE conversation_id = $1 AND role = 'assistant'`,
      [conversation],
    );
    const costView = (await get(experiment)).body;
    expect(costView.arms[0]).toMatchObject({ arm: 'control', observations: 1 });
    expect(costView.arms[0].estimate.estimate).toBeCloseTo(priced.cost, 6);
    for (const res of [await get(experiment, stranger.access_token), await put(experiment, { goal: 'rating' }, stranger.access_token), await post(`${experiment}/promote`, {}, stranger.access_token)]) {
      expect(res.status).toBe(404);
    }
  });
});
