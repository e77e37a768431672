import { waitFor } from '../../support/wait-for';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { KillableCoreApi } from '../../support/killable-core-api';

const BASE_URL = process.env.TEST_DATABASE_URL;

// Two processes must share one database: PGlite serves one process only, so this needs PostgreSQL.
(BASE_URL ? describe : describe.skip)('a webhook delivery survives a SIGKILL of the core API (PostgreSQL; skipped without TEST_DATABASE_URL)', () => {
  const processes = new KillableCoreApi(BASE_URL!, 'kill');
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    await processes.open();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await processes.close();
  });

  // The shortest lease allowed: the cut delivery is sent again 15 s after it was taken, not a minute.
  const start = () => processes.start({ WEBHOOK_DELIVERY_LEASE_MS: '15000' });

  it('delivers the committed event after restart, same event id, exactly once successfully', async () => {
    const answered: number[] = [];
    // The first delivery is held open: the process is killed while it waits for the answer.
    receiver.respond = (_req, n) => {
      if (n === 1) return 'hang';
      answered.push(204);
      return 204;
    };
    const first = await start();
    const owner = (await first.client.post('/api/auth/register', { email: 'kill@example.com', password: 'kill password', displayName: 'K' })).body;
    const hook = await first.client.post('/api/webhooks', { url: receiver.url, events: ['application.created'] }, { token: owner.access_token });
    expect(hook.status).toBe(201);
    const app = await first.client.post('/api/applications', { name: 'Survives SIGKILL' }, { token: owner.access_token });
    expect(app.status).toBe(201);
    await waitFor(() => receiver.received.length >= 1, 20_000);
    const firstEvent = JSON.parse(receiver.received[0].body) as { id: string; type: string; data: { applicationId: string } };
    expect(firstEvent).toMatchObject({ type: 'application.created', data: { applicationId: app.body.id } });
    // Committed, sent, never answered: the process dies without a chance to record anything.
    first.service.child.kill('SIGKILL');
    await first.service.exited;

    const second = await start();
    try {
      await waitFor(() => answered.length >= 1, 60_000);
      await new Promise((r) => setTimeout(r, 1500));
      const events = receiver.received.map((r) => JSON.parse(r.body) as { id: string; type: string });
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(new Set(events.map((e) => e.id))).toEqual(new Set([firstEvent.id]));
      expect(receiver.received.slice(1).every((r) => r.headers['webhook-id'] === receiver.received[0].headers['webhook-id'])).toBe(true);
      expect(answered).toHaveLength(1);
    } finally {
      await second.service.stop('SIGKILL');
    }
  }, 150_000);
});
