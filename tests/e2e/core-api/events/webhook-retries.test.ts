import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from '../../../../core/webhooks/domain/webhook';
import type { Clock } from '../../../../core/shared/clock.port';
import { startEventsInstance, uniquePrefix, type EventsInstance } from '../../../support/events-stack';
import { DATABASE_KINDS } from '../../../support/test-database';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/webhook-receiver';

/** Real time moved on by hand: the retry schedule's hours pass in a moment. */
class MovableClock implements Clock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

describe.each(DATABASE_KINDS)('webhook retries, timeouts and disabling (%s)', (database) => {
  let stack: TestStack;
  let core: EventsInstance;
  let receiver: WebhookReceiver;
  const clock = new MovableClock();

  beforeAll(async () => {
    stack = await startCoreApi({ database, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    await stack.core.stop();
    if (process.env.TEST_REDIS_URL) stack.config.redisUrl = process.env.TEST_REDIS_URL;
    core = await startEventsInstance(stack, { jobPrefix: uniquePrefix('retries'), clock, webhooks: { timeoutMs: 300 }, sweepIntervalMs: 100 });
  });
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });
  afterAll(async () => {
    await core?.close();
    await stack?.close();
  });

  async function webhookOf(token: string) {
    const hook = await core.client.post('/api/webhooks', { url: receiver.url, events: ['message.completed'] }, { token });
    expect(hook.status).toBe(201);
    return hook.body as { id: string; secret: string };
  }
  const log = async (id: string, token: string) => (await core.client.get(`/api/webhooks/${id}/deliveries?limit=100`, { token })).body as Array<Record<string, any>>;

  it('retries a receiver that answered 500 after 5 s and logs both attempts', async () => {
    const user = await registerUser(core.client);
    const hook = await webhookOf(user.access_token);
    receiver.respond = (_req, n) => (n === 1 ? 500 : 200);
    const ping = await core.client.post(`/api/webhooks/${hook.id}/test`, {}, { token: user.access_token });
    await waitFor(async () => (await log(hook.id, user.access_token)).length === 1);
    const [first] = await log(hook.id, user.access_token);
    expect(first).toMatchObject({ eventId: ping.body.eventId, attempt: 1, outcome: 'failed', statusCode: 500, deliveryStatus: 'pending' });
    expect(new Date(first!.nextRetryAt).getTime() - new Date(first!.createdAt).getTime()).toBe(RETRY_SCHEDULE_MS[0]);
    // Not before its time…
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received).toHaveLength(1);
    clock.advance(RETRY_SCHEDULE_MS[0]);
    await waitFor(async () => (await log(hook.id, user.access_token)).length === 2);
    const attempts = await log(hook.id, user.access_token);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([
      [2, 'succeeded', 200],
      [1, 'failed', 500],
    ]);
    expect(receiver.received).toHaveLength(2);
    // The same message both times: receivers de-duplicate on webhook-id.
    expect(receiver.received[0]!.headers['webhook-id']).toBe(receiver.received[1]!.headers['webhook-id']);
    const listed = (await core.client.get('/api/webhooks', { token: user.access_token })).body[0];
    expect(listed).toMatchObject({ totalDeliveries: 2, failedDeliveries: 1, lastError: 'The receiver answered 500', enabled: true });
  });

  it('cuts off a receiver that hangs and records a timeout', async () => {
    const user = await registerUser(core.client);
    const hook = await webhookOf(user.access_token);
    receiver.respond = () => 'hang';
    await core.client.post(`/api/webhooks/${hook.id}/test`, {}, { token: user.access_token });
    await waitFor(async () => (await log(hook.id, user.access_token)).length === 1);
    const [attempt] = await log(hook.id, user.access_token);
    expect(attempt).toMatchObject({ outcome: 'timeout', statusCode: null, error: 'No answer within 300 ms' });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('follows the whole schedule, marks the delivery failed, retries it by hand, and disables the endpoint after 5 days of failures', async () => {
    const user = await registerUser(core.client);
    const token = user.access_token;
    const hook = await webhookOf(token);
    receiver.respond = () => 503;
    await core.client.post(`/api/webhooks/${hook.id}/test`, {}, { token });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await waitFor(async () => (await log(hook.id, token)).length === attempt, 10_000);
      if (attempt < MAX_ATTEMPTS) clock.advance(RETRY_SCHEDULE_MS[attempt - 1]!);
    }
    const attempts = await log(hook.id, token);
    expect(attempts[0]).toMatchObject({ attempt: MAX_ATTEMPTS, outcome: 'failed', nextRetryAt: null, deliveryStatus: 'failed' });
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);

    // A manual retry sends the failed delivery once more.
    const retry = await core.client.post(`/api/webhooks/${hook.id}/deliveries/${attempts[0]!.deliveryId}/retry`, {}, { token });
    expect(retry.status).toBe(202);
    await waitFor(async () => (await log(hook.id, token)).length === MAX_ATTEMPTS + 1);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS + 1);

    // Five days after the first failure, the next failure disables the webhook and tells its owner.
    clock.advance(5 * 24 * 3_600_000);
    await core.client.post(`/api/webhooks/${hook.id}/test`, {}, { token });
    await waitFor(async () => (await core.client.get('/api/webhooks', { token })).body[0].enabled === false, 10_000);
    const disabled = (await core.client.get('/api/webhooks', { token })).body[0];
    expect(disabled.disabledReason).toContain('failed deliveries in a row');
    const notes = await core.client.get('/api/notifications?category=webhook', { token });
    expect(notes.body).toEqual([expect.objectContaining({ type: 'error', title: 'A webhook was disabled', read: false })]);
    // Disabled: nothing more is sent, even a ping.
    const sent = receiver.received.length;
    await core.client.post(`/api/webhooks/${hook.id}/test`, {}, { token });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(sent);
    // Enabled again: the failure run starts over.
    const enabled = await core.client.put(`/api/webhooks/${hook.id}`, { enabled: true }, { token });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
  });
});
