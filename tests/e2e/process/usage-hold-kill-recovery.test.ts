import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { waitFor } from '../../support/wait-for';
import { KillableCoreApi } from '../../support/killable-core-api';
import type { TestClient } from '../../support/http-client';

const BASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const ADMIN = 'hold-kill-admin@example.com';
/** A short lease, so that the test waits seconds rather than the default half minute. */
const LEASE_MS = 2_000;

interface Usage {
  tokensUsed: number;
  tokensReserved: number;
  messages: number;
}

// Instances share PostgreSQL and Redis, as a deployment of several core APIs does.
(BASE_URL && REDIS_URL ? describe : describe.skip)('a token reservation does not outlive a SIGKILLed instance (PostgreSQL and Redis; skipped without TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  const processes = new KillableCoreApi(BASE_URL!, 'holdkill');
  let emulator: Emulator;

  beforeAll(async () => {
    await processes.open();
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator?.close();
    await processes.close();
  });

  const start = () =>
    processes.start({
      PROVIDER_A_BASE_URL: emulator.baseUrls.provider_a,
      PROVIDER_A_API_KEY: 'sk-platform-hold',
      ADMIN_EMAILS: ADMIN,
      REDIS_URL: REDIS_URL!,
      USAGE_HOLD_LEASE_MS: String(LEASE_MS),
    });
  const usageOf = async (client: TestClient, token: string): Promise<Usage> => {
    const res = await client.get('/api/billing/usage', { token });
    expect(res.status).toBe(200);
    return res.body.usage as Usage;
  };

  it('gives the killed instance\'s reservation back within the lease; the user message and usage read back alike everywhere', async () => {
    const [first, second, third] = await Promise.all([start(), start(), start()]);
    const owner = (await second.client.post('/api/auth/register', { email: 'hold-kill@example.com', password: 'kill password', displayName: 'K' })).body;
    const admin = (await second.client.post('/api/auth/register', { email: ADMIN, password: 'kill password', displayName: 'A' })).body;
    expect((await second.client.put(`/api/admin/users/${owner.user.id}/plan`, { plan: 'pro' }, { token: admin.access_token })).status).toBe(200);
    const token = owner.access_token as string;
    const app = await second.client.post('/api/applications', { name: 'Quota across a crash' }, { token });
    const conversation = (await second.client.post('/api/conversations', { applicationId: app.body.id }, { token })).body;
    // One whole turn: its reservation is settled with what the provider counted.
    expect((await second.client.post(`/api/conversations/${conversation.id}/messages`, { content: 'one', provider: 'provider_a' }, { token })).status).toBe(200);
    const before = await usageOf(third.client, token);
    expect(before).toMatchObject({ tokensReserved: 0, messages: 1 });

    // A streamed turn through the first instance, killed while the provider is still answering.
    emulator.behaviour.reply = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    emulator.behaviour.chunkDelayMs = 200;
    const stream = await fetch(`${first.client.baseUrl}/api/conversations/${conversation.id}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: 'two, cut short', provider: 'provider_a' }),
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('chunk');
    // Held past a renewal of the lease: a live holder keeps its reservation.
    await new Promise((r) => setTimeout(r, LEASE_MS * 1.5));
    const during = await usageOf(second.client, token);
    expect(during.tokensReserved).toBeGreaterThan(0);
    expect(during.messages).toBe(2);
    first.service.child.kill('SIGKILL');
    await first.service.exited;
    await reader.cancel().catch(() => undefined);
    emulator.behaviour.chunkDelayMs = 0;

    // Within the lease and half a lease more (one sweep), every instance shows nothing reserved.
    const killedAt = Date.now();
    await waitFor(async () => (await usageOf(second.client, token)).tokensReserved === 0, 20_000);
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 1.5 + 3_000);
    for (const client of [second.client, third.client]) {
      // The cut turn counts as a message; its answer was never stored, so no tokens are charged for it.
      expect(await usageOf(client, token)).toMatchObject({ tokensReserved: 0, tokensUsed: before.tokensUsed, messages: 2 });
      const read = (await client.get(`/api/conversations/${conversation.id}`, { token })).body.messages as Array<{ role: string; content: string }>;
      expect(read.map((m) => [m.role, m.content])).toEqual([['user', 'one'], ['assistant', expect.any(String)], ['user', 'two, cut short']]);
    }
    // And the quota keeps working: the next turn is admitted and settled.
    expect((await third.client.post(`/api/conversations/${conversation.id}/messages`, { content: 'three', provider: 'provider_a' }, { token })).status).toBe(200);
    expect(await usageOf(second.client, token)).toMatchObject({ tokensReserved: 0, messages: 3 });
  }, 200_000);
});
