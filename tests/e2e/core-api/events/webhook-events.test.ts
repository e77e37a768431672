import { EVENT_TYPES } from '../../../../core/events/domain/domain-event';
import { EVENT_TOKENS } from '../../../../apps/shared/modules/event.tokens';
import { resolve } from '../../../../apps/shared/tokens';
import { startEventsInstance, uniquePrefix, type EventsInstance } from '../../../support/events-stack';
import { DATABASE_KINDS } from '../../../support/test-database';
import { paidUserWithApplication, startCoreApi, type TestStack } from '../../../support/test-stack';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/webhook-receiver';
import { postStream, readSseEvents } from '../../../support/sse';

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl) process.stdout.write('note: TEST_REDIS_URL is not set; the two instances share the database only (in-process queues)\n');

describe.each(DATABASE_KINDS)('domain events to webhooks (%s)', (database) => {
  let stack: TestStack;
  let a: EventsInstance;
  let b: EventsInstance;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    // The stack's own core stops its background work: the two instances below do the delivering.
    await stack.core.stop();
    if (redisUrl) stack.config.redisUrl = redisUrl;
    const jobPrefix = uniquePrefix('events');
    a = await startEventsInstance(stack, { jobPrefix });
    b = await startEventsInstance(stack, { jobPrefix });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await receiver?.close();
    await stack?.close();
  });

  it('delivers each of the 13 event types from real actions, signed per Standard Webhooks, once each across two instances', async () => {
    const owner = await paidUserWithApplication(stack, 'starter');
    const token = owner.token;
    const hook = await a.client.post('/api/webhooks', { url: receiver.url, events: [...EVENT_TYPES], description: 'CRM' }, { token });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const secret = hook.body.secret as string;
    // Never shown again.
    const listed = await b.client.get('/api/webhooks', { token });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    // Actions spread over both instances.
    const app = await b.client.post('/api/applications', { name: 'Events App' }, { token });
    expect(app.status).toBe(201);
    const conversation = await a.client.post('/api/conversations', { applicationId: app.body.id }, { token });
    expect(conversation.status).toBe(201);
    const turn = await b.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Hello there', provider: 'provider_a' }, { token });
    expect(turn.status).toBe(200);
    // 80 % of the Starter plan's messages used: the next answer crosses the threshold.
    await stack.infra.dataSource.query(`UPDATE usage_counters SET messages_used = 8500 WHERE user_id = $1`, [owner.user.id]);
    const second = await a.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'And again', provider: 'provider_a' }, { token });
    expect(second.status).toBe(200);
    expect((await a.client.delete(`/api/conversations/${conversation.body.id}`, { token })).status).toBe(204);
    const key = await b.client.post('/api/api-keys', { name: 'ci', applicationId: app.body.id }, { token });
    expect(key.status).toBe(201);
    expect((await a.client.post(`/api/api-keys/${key.body.id}/revoke`, {}, { token })).status).toBe(200);
    await stack.setPlan(owner.user.id, 'pro');
    // Plugins are another area's: their use cases publish through the same port, as here.
    const publisher = resolve(a.app.container, EVENT_TOKENS.Publisher);
    const plugin = { applicationId: app.body.id, installationId: '00000000-0000-4000-8000-000000000001', pluginId: 'acme.greeter', version: '1.0.0' };
    await publisher.publish({ type: 'plugin.activated', ownerId: owner.user.id, applicationId: app.body.id, data: plugin });
    await publisher.publish({ type: 'plugin.deactivated', ownerId: owner.user.id, applicationId: app.body.id, data: { ...plugin, reason: 'hook timed out 5 times' } });
    // So do A/B test decisions (tests/e2e/core-api/ab-tests.test.ts reaches one through ratings).
    const decided = { applicationId: app.body.id, configId: plugin.installationId, experimentId: plugin.installationId, decision: 'winner', arm: 'control', goal: 'rating', automatic: true };
    await publisher.publish({ type: 'experiment.decided', ownerId: owner.user.id, applicationId: app.body.id, data: decided });
    // A workflow's webhook step announces workflow.event; the run ends before the application goes.
    const flow = await a.client.post('/api/workflows', { applicationId: app.body.id, name: 'Announce', steps: [{ id: 'announce', kind: 'webhook', data: { hello: 'world' } }] }, { token });
    const run = await b.client.post(`/api/workflows/${flow.body.id}/trigger`, { input: {} }, { token });
    await waitFor(async () => (await a.client.get(`/api/workflows/runs/${run.body.runId}`, { token })).body.status === 'completed', 10_000);
    expect((await b.client.delete(`/api/applications/${app.body.id}`, { token })).status).toBe(204);

    await waitFor(() => new Set(receiver.received.map((r) => JSON.parse(r.body).type)).size >= EVENT_TYPES.length, 20_000);
    await new Promise((r) => setTimeout(r, 1000)); // any double send would arrive by now
    const events = receiver.verified(secret);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    // One delivery per event, whichever instance drained it.
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of receiver.received) expect(r.headers['webhook-id']).toBe(JSON.parse(r.body).id);

    const byType = (t: string) => events.filter((e) => e.type === t);
    expect(byType('message.completed')[0]!.data).toMatchObject({ applicationId: app.body.id, conversationId: conversation.body.id, provider: 'provider_a', interrupted: false });
    expect(byType('message.completed')[0]!.data.usage).toEqual(expect.objectContaining({ totalTokens: expect.any(Number) }));
    expect(byType('api_key.revoked')[0]!.data).toEqual({ apiKeyId: key.body.id, applicationId: app.body.id, hint: key.body.keyHint });
    expect(byType('subscription.updated')[0]!.data).toMatchObject({ plan: 'pro', previousPlan: 'starter' });
    expect(byType('workflow.event')[0]!.data).toMatchObject({ applicationId: app.body.id, workflowId: flow.body.id, runId: run.body.runId, stepId: 'announce', data: { hello: 'world' } });
    expect(byType('usage.limit_reached')).toEqual([expect.objectContaining({ data: expect.objectContaining({ metric: 'messages', threshold: 80, limit: 10_000 }) })]);
    expect(byType('application.deleted')[0]!.data).toEqual({ applicationId: app.body.id, name: 'Events App' });
    // No secret or key in any payload.
    expect(receiver.received.map((r) => r.body).join('')).not.toContain(key.body.key);

    // The delivery log and the counters.
    const log = await a.client.get(`/api/webhooks/${hook.body.id}/deliveries?limit=100`, { token });
    expect(log.status).toBe(200);
    expect(log.body).toHaveLength(events.length);
    expect(log.body[0]).toMatchObject({ attempt: 1, outcome: 'succeeded', statusCode: 204, error: null, nextRetryAt: null });
    const after = (await a.client.get('/api/webhooks', { token })).body[0];
    expect(after).toMatchObject({ totalDeliveries: events.length, failedDeliveries: 0, lastError: null });

    // The threshold notification reached the owner.
    const notes = await b.client.get('/api/notifications?category=billing', { token });
    expect(notes.body.map((n: { title: string }) => n.title)).toEqual(expect.arrayContaining([expect.stringContaining('80 %')]));
  });

  it('sends a signed test ping and answers 404 for another user’s webhook', async () => {
    const owner = await paidUserWithApplication(stack, 'starter');
    const other = await paidUserWithApplication(stack, 'starter');
    const hook = await a.client.post('/api/webhooks', { url: receiver.url, events: ['message.completed'] }, { token: owner.token });
    const before = receiver.received.length;
    const ping = await a.client.post(`/api/webhooks/${hook.body.id}/test`, {}, { token: owner.token });
    expect(ping.status).toBe(202);
    await waitFor(() => receiver.received.slice(before).some((r) => JSON.parse(r.body).id === ping.body.eventId), 10_000);
    const got = receiver.received.slice(before).find((r) => JSON.parse(r.body).id === ping.body.eventId)!;
    expect(JSON.parse(got.body).type).toBe('webhook.test');
    expect(() => receiver.verified(hook.body.secret)).toThrow(); // the others were signed with other secrets…
    const { Webhook } = await import('standardwebhooks');
    expect(new Webhook(hook.body.secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test' });

    const one = await a.client.get(`/api/webhooks/${hook.body.id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: hook.body.id, url: receiver.url, events: ['message.completed'] });
    expect(JSON.stringify(one.body)).not.toContain(hook.body.secret);
    expect((await a.client.get('/api/webhooks/not-an-id', { token: owner.token })).status).toBe(404);
    for (const [method, path] of [
      ['get', `/api/webhooks/${hook.body.id}`],
      ['put', `/api/webhooks/${hook.body.id}`],
      ['delete', `/api/webhooks/${hook.body.id}`],
      ['post', `/api/webhooks/${hook.body.id}/test`],
      ['post', `/api/webhooks/${hook.body.id}/rotate-secret`],
      ['get', `/api/webhooks/${hook.body.id}/deliveries`],
    ] as const) {
      const res = method === 'get' || method === 'delete' ? await a.client[method](path, { token: other.token }) : await a.client[method](path, { enabled: false }, { token: other.token });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }

    // Rotation: the new secret signs from now on, the old one no longer verifies.
    const rotated = await a.client.post(`/api/webhooks/${hook.body.id}/rotate-secret`, {}, { token: owner.token });
    expect(rotated.body.secret).not.toBe(hook.body.secret);
    const n = receiver.received.length;
    const ping2 = await a.client.post(`/api/webhooks/${hook.body.id}/test`, {}, { token: owner.token });
    await waitFor(() => receiver.received.slice(n).some((r) => JSON.parse(r.body).id === ping2.body.eventId), 10_000);
    const got2 = receiver.received.slice(n).find((r) => JSON.parse(r.body).id === ping2.body.eventId)!;
    expect(new Webhook(rotated.body.secret).verify(got2.body, got2.headers)).toBeTruthy();
    expect(() => new Webhook(hook.body.secret).verify(got2.body, got2.headers)).toThrow();
  });

  it('publishes the chat events of public-API turns and of streamed turns too', async () => {
    const owner = await paidUserWithApplication(stack, 'pro');
    const token = owner.token;
    const hook = await a.client.post('/api/webhooks', { url: receiver.url, events: ['conversation.started', 'message.received', 'message.completed'], applicationId: owner.app.id }, { token });
    const key = await a.client.post('/api/api-keys', { name: 'site', applicationId: owner.app.id }, { token });
    const before = receiver.received.length;
    const publicTurn = await b.client.post('/api/v1/chat', { message: 'Hello from the site', applicationId: owner.app.id }, { headers: { 'X-API-Key': key.body.key } });
    expect(publicTurn.status).toBe(200);
    const conversation = await a.client.post('/api/conversations', { applicationId: owner.app.id }, { token });
    const streamed = await postStream(`${a.client.baseUrl}/api/conversations/${conversation.body.id}/stream`, { content: 'Stream it', provider: 'provider_a' }, { Authorization: `Bearer ${token}` });
    const sse = await readSseEvents(streamed);
    const done = sse.find((e) => e.type === 'done');
    expect(done).toBeDefined();

    await waitFor(() => receiver.received.length - before >= 6, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    const { Webhook } = await import('standardwebhooks');
    const wh = new Webhook(hook.body.secret);
    const events = receiver.received.slice(before).map((r) => wh.verify(r.body, r.headers) as { type: string; data: Record<string, any> });
    const summary = events.map((e) => `${e.type}:${e.data.conversationId}:${e.data.source ?? ''}`).sort();
    expect(summary).toEqual(
      [
        `conversation.started:${publicTurn.body.conversationId}:api`,
        `message.received:${publicTurn.body.conversationId}:api`,
        `message.completed:${publicTurn.body.conversationId}:`,
        `conversation.started:${conversation.body.id}:dashboard`,
        `message.received:${conversation.body.id}:dashboard`,
        `message.completed:${conversation.body.id}:`,
      ].sort(),
    );
    expect(events.find((e) => e.type === 'message.completed' && e.data.conversationId === conversation.body.id)!.data.messageId).toBe(done.messageId);
    // message.received names the user's message: the id the conversation's messages list shows, for both turns.
    for (const [id, client] of [[publicTurn.body.conversationId as string, b.client], [conversation.body.id as string, a.client]] as const) {
      const shown = await client.get(`/api/conversations/${id}`, { token });
      const userMessage = (shown.body.messages as Array<{ id: string; role: string }>).find((m) => m.role === 'user')!;
      expect(events.find((e) => e.type === 'message.received' && e.data.conversationId === id)!.data.messageId).toBe(userMessage.id);
    }
  });
});
