import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { waitFor } from '../../support/wait-for';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { KillableCoreApi } from '../../support/killable-core-api';

const BASE_URL = process.env.TEST_DATABASE_URL;
const ADMIN = 'chat-kill-admin@example.com';

interface Delivered {
  id: string;
  type: string;
  data: { conversationId: string; messageId?: string | null; interrupted?: boolean };
}

// Two processes must share one database: PGlite serves one process only, so this needs PostgreSQL.
(BASE_URL ? describe : describe.skip)('a chat turn\'s events survive a SIGKILL of the core API (PostgreSQL; skipped without TEST_DATABASE_URL)', () => {
  const processes = new KillableCoreApi(BASE_URL!, 'chatkill');
  let receiver: WebhookReceiver;
  let emulator: Emulator;

  beforeAll(async () => {
    await processes.open();
    receiver = await WebhookReceiver.start();
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await receiver?.close();
    await emulator?.close();
    await processes.close();
  });

  const start = () => processes.start({ PROVIDER_A_BASE_URL: emulator.baseUrls.provider_a, PROVIDER_A_API_KEY: 'sk-platform-kill', ADMIN_EMAILS: ADMIN, WEBHOOK_DELIVERY_LEASE_MS: '15000' });

  it('delivers every stored turn\'s events exactly once after a restart, the cut stream\'s user message included', async () => {
    // Every delivery is answered at once, except the first message.received of the streamed turn: the
    // process is killed while that one waits for its answer (as the webhook recovery test does).
    const answered = new Map<string, number>();
    let holdNextReceived = false;
    receiver.respond = (req) => {
      const event = JSON.parse(req.body) as Delivered;
      if (holdNextReceived && event.type === 'message.received') {
        holdNextReceived = false;
        return 'hang';
      }
      answered.set(event.id, (answered.get(event.id) ?? 0) + 1);
      return 204;
    };
    const first = await start();
    const owner = (await first.client.post('/api/auth/register', { email: 'chat-kill@example.com', password: 'kill password', displayName: 'K' })).body;
    const admin = (await first.client.post('/api/auth/register', { email: ADMIN, password: 'kill password', displayName: 'A' })).body;
    expect((await first.client.put(`/api/admin/users/${owner.user.id}/plan`, { plan: 'pro' }, { token: admin.access_token })).status).toBe(200);
    const token = owner.access_token as string;
    const app = await first.client.post('/api/applications', { name: 'Chat across a crash' }, { token });
    const hook = await first.client.post('/api/webhooks', { url: receiver.url, events: ['conversation.started', 'message.received', 'message.completed'], applicationId: app.body.id }, { token });
    expect(hook.status).toBe(201);

    // Two whole turns, then a streamed one the process dies in the middle of.
    const conversation = (await first.client.post('/api/conversations', { applicationId: app.body.id }, { token })).body;
    for (const content of ['one', 'two']) {
      expect((await first.client.post(`/api/conversations/${conversation.id}/messages`, { content, provider: 'provider_a' }, { token })).status).toBe(200);
    }
    await waitFor(() => answered.size >= 5, 30_000);
    holdNextReceived = true;
    emulator.behaviour.reply = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    emulator.behaviour.chunkDelayMs = 200;
    const stream = await fetch(`${first.client.baseUrl}/api/conversations/${conversation.id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: 'three, cut short', provider: 'provider_a' }),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('chunk');
    // The turn's message.received was written with its message: its delivery is under way, the answer is not.
    await waitFor(() => !holdNextReceived, 20_000);
    first.service.child.kill('SIGKILL');
    await first.service.exited;
    await reader.cancel().catch(() => undefined);
    emulator.behaviour.chunkDelayMs = 0;

    const second = await start();
    try {
      const messages = (await second.client.get(`/api/conversations/${conversation.id}`, { token })).body.messages as Array<{ id: string; role: string; status: string }>;
      const userMessages = messages.filter((m) => m.role === 'user').map((m) => m.id);
      const answers = messages.filter((m) => m.role === 'assistant' && m.status !== 'failed').map((m) => m.id);
      // The third question was stored before the provider answered; its answer died with the process.
      expect(userMessages).toHaveLength(3);
      expect(answers).toHaveLength(2);
      const expected = 1 + userMessages.length + answers.length;
      // The delivery cut by the kill is taken up again once its lease (15 s here) has passed.
      await waitFor(() => answered.size >= expected, 100_000);
      await new Promise((r) => setTimeout(r, 2500));
      const all = receiver.verified(hook.body.secret) as unknown as Delivered[];
      const events = [...new Map(all.map((e) => [e.id, e])).values()];
      // Exactly once: each event answered once, and nothing beyond the stored turns' events.
      expect([...answered.values()].every((n) => n === 1)).toBe(true);
      expect(answered.size).toBe(events.length);
      expect(events.filter((e) => e.type === 'conversation.started').map((e) => e.data.conversationId)).toEqual([conversation.id]);
      expect(events.filter((e) => e.type === 'message.received').map((e) => e.data.messageId).sort()).toEqual([...userMessages].sort());
      expect(events.filter((e) => e.type === 'message.completed').map((e) => e.data.messageId).sort()).toEqual([...answers].sort());
      expect(events).toHaveLength(expected);
    } finally {
      await second.service.stop('SIGKILL');
    }
  }, 200_000);
});
