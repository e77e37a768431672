import { DATABASE_KINDS } from '../../support/test-database';
import { PLATFORM_KEYS, registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';

const ADMIN_EMAIL = 'billing-admin@example.com';
const OWN_KEY = 'sk-own-billing-key-4242';
type Plan = 'free' | 'starter' | 'pro' | 'enterprise';
type Status = 'active' | 'past_due' | 'canceled' | 'trialing' | 'incomplete';

describe.each(DATABASE_KINDS)('core API: plans, usage and the token quota (%s)', (database) => {
  let stack: TestStack;
  let adminToken: string;
  const db = (sql: string, params: unknown[] = []) => stack.infra.dataSource.query(sql, params);

  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true, env: { ADMIN_EMAILS: ADMIN_EMAIL } });
    adminToken = (await registerUser(stack.client, { email: ADMIN_EMAIL })).access_token;
  });
  afterAll(() => stack.close());

  const setPlan = async (userId: string, plan: Plan, status?: Status) => {
    const res = await stack.client.put(`/api/admin/users/${userId}/plan`, { plan, status }, { token: adminToken });
    expect(res.status).toBe(200);
    return res.body;
  };
  const usage = async (token: string) => (await stack.client.get('/api/billing/usage', { token })).body;
  /** An owner with an application and a conversation in it, on a plan. */
  const anOwner = async (plan: Plan = 'free', status?: Status) => {
    const owner = await userWithApplication(stack.client);
    if (plan !== 'free' || status) await setPlan(owner.user.id, plan, status);
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const chat = (content = 'Hello there', conversationId: string = conversation.body.id) =>
      stack.client.post(`/api/conversations/${conversationId}/messages`, { content }, { token: owner.token });
    return { ...owner, conversationId: conversation.body.id as string, chat };
  };
  /** Sets this period's platform tokens directly, as if earlier chats had used them. */
  const seedTokensUsed = (userId: string, tokens: number) => db(`UPDATE usage_counters SET tokens_used = $2 WHERE user_id = $1`, [userId, tokens]);

  it('lists the plans of SPEC 8 without authentication', async () => {
    const res = await stack.client.get('/api/billing/plans');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string; priceUsdPerMonth: number; limits: { includedTokens: number | null } }) => [p.id, p.priceUsdPerMonth, p.limits.includedTokens])).toEqual([
      ['free', 0, 0],
      ['starter', 29, 100_000],
      ['pro', 99, 500_000],
      ['enterprise', 499, null],
    ]);
    // The Free plan's message allowance is part of its answer (issue 17).
    expect(res.body[0].limits).toEqual({ includedTokens: 0, applications: 3, messagesPerMonth: 1000, apiKeys: 2 });
  });

  it('puts every new user on Free with a monthly period from registration and zero usage', async () => {
    const user = await registerUser(stack.client);
    expect((await stack.client.get('/api/billing/usage')).status).toBe(401);
    const body = await usage(user.access_token);
    expect(body).toMatchObject({
      plan: 'free',
      status: 'active',
      effectivePlan: 'free',
      overageAllowed: false,
      limits: { includedTokens: 0, applications: 3, messagesPerMonth: 1000, apiKeys: 2 },
      usage: { tokensUsed: 0, tokensReserved: 0, tokensRemaining: 0, overageTokens: 0, overageCostUsd: 0, ownKeyTokens: 0, messages: 0, applications: 0, apiKeys: 0 },
    });
    const start = Date.parse(body.period.start);
    expect(Math.abs(start - Date.now())).toBeLessThan(60_000);
    expect(new Date(body.period.end).getUTCMonth()).toBe((new Date(start).getUTCMonth() + 1) % 12);
  });

  describe('the admin plan endpoint', () => {
    it('is for admins only', async () => {
      const user = await registerUser(stack.client);
      expect((await stack.client.put(`/api/admin/users/${user.user.id}/plan`, { plan: 'pro' }, { token: user.access_token })).status).toBe(403);
      expect((await stack.client.put(`/api/admin/users/${user.user.id}/plan`, { plan: 'pro' })).status).toBe(401);
    });

    it('answers 404 for an unknown user and 400 for an unknown plan or status', async () => {
      const user = await registerUser(stack.client);
      expect((await stack.client.put('/api/admin/users/5f0c2b9e-8f7a-4d7e-9a51-1f2e3d4c5b6a/plan', { plan: 'pro' }, { token: adminToken })).status).toBe(404);
      expect((await stack.client.put('/api/admin/users/not-a-uuid/plan', { plan: 'pro' }, { token: adminToken })).status).toBe(404);
      const bad = await stack.client.put(`/api/admin/users/${user.user.id}/plan`, { plan: 'platinum' }, { token: adminToken });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/plan must be one of free, starter, pro, enterprise/);
      expect((await stack.client.put(`/api/admin/users/${user.user.id}/plan`, { plan: 'pro', status: 'paused' }, { token: adminToken })).status).toBe(400);
      expect((await stack.client.put(`/api/admin/users/${user.user.id}/plan`, {}, { token: adminToken })).status).toBe(400);
    });

    it('changes the plan and starts a fresh period with zero usage', async () => {
      const owner = await anOwner('starter');
      expect((await owner.chat()).status).toBe(200);
      expect((await usage(owner.token)).usage.tokensUsed).toBeGreaterThan(0);
      const changed = await setPlan(owner.user.id, 'pro');
      expect(changed).toMatchObject({ userId: owner.user.id, plan: 'pro', status: 'active', effectivePlan: 'pro' });
      const after = await usage(owner.token);
      expect(after).toMatchObject({ plan: 'pro', limits: { includedTokens: 500_000 }, usage: { tokensUsed: 0, messages: 0 } });
      expect(after.period.start).toBe(changed.period.start);
    });
  });

  describe('a Free user', () => {
    it('gets a 402 suggesting an own key, and recovers after saving one; own-key tokens are never metered', async () => {
      const owner = await anOwner();
      stack.emulator!.reset();
      const refused = await owner.chat();
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ statusCode: 402, error: 'Payment Required' });
      expect(refused.body.message).toMatch(/save your own OpenAI key under Provider keys/);
      expect(stack.emulator!.requests).toEqual([]);

      expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token })).status).toBe(200);
      const answer = await owner.chat();
      expect(answer.status).toBe(200);
      expect(stack.emulator!.requests.map((r) => r.apiKey)).toEqual([OWN_KEY]);
      expect((await usage(owner.token)).usage).toMatchObject({ tokensUsed: 0, ownKeyTokens: answer.body.usage.totalTokens, messages: 1 });
    });

    it('is refused again once the key is deleted (SPEC 4.6 rule 3)', async () => {
      const owner = await anOwner();
      await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token });
      expect((await owner.chat()).status).toBe(200);
      expect((await stack.client.delete('/api/provider-keys/provider_a', { token: owner.token })).status).toBe(204);
      expect((await owner.chat()).status).toBe(402);
    });

    it('may create 3 applications, and gets a 402 naming the limit for the 4th', async () => {
      const { access_token: token } = await registerUser(stack.client);
      for (let i = 0; i < 3; i++) expect((await stack.client.post('/api/applications', { name: `App ${i}` }, { token })).status).toBe(201);
      const fourth = await stack.client.post('/api/applications', { name: 'App 4' }, { token });
      expect(fourth.status).toBe(402);
      expect(fourth.body.message).toMatch(/Free plan allows 3 applications/);
    });

    it('may create 2 API keys, and gets a 402 naming the limit for the 3rd', async () => {
      const { access_token: token } = await registerUser(stack.client);
      for (let i = 0; i < 2; i++) expect((await stack.client.post('/api/api-keys', { name: `Key ${i}` }, { token })).status).toBe(201);
      const third = await stack.client.post('/api/api-keys', { name: 'Key 3' }, { token });
      expect(third.status).toBe(402);
      expect(third.body.message).toMatch(/Free plan allows 2 API keys/);
      expect((await usage(token)).usage.apiKeys).toBe(2);
    });

    describe('20 concurrent creations at the plan limit', () => {
      /** Fires `n` requests at once; the statuses, and the bodies of the refusals. */
      const burst = async (n: number, request: (i: number) => Promise<{ status: number; body: { message?: string } }>) => {
        const responses = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
        return { created: responses.filter((r) => r.status === 201).length, refused: responses.filter((r) => r.status !== 201) };
      };

      it('create exactly 3 applications and refuse the other 17 with a 402 naming the limit', async () => {
        const { access_token: token } = await registerUser(stack.client);
        const { created, refused } = await burst(20, (i) => stack.client.post('/api/applications', { name: `Burst App ${i}` }, { token }));
        expect(created).toBe(3);
        expect(refused).toHaveLength(17);
        for (const r of refused) {
          expect(r.status).toBe(402);
          expect(r.body).toEqual({ statusCode: 402, error: 'Payment Required', message: expect.stringMatching(/Free plan allows 3 applications/) });
        }
        expect((await stack.client.get('/api/applications', { token })).headers.get('x-total-count')).toBe('3');
        expect((await usage(token)).usage.applications).toBe(3);
      });

      it('create exactly 2 API keys and refuse the other 18 with a 402 naming the limit', async () => {
        const owner = await userWithApplication(stack.client);
        const { created, refused } = await burst(20, (i) =>
          stack.client.post('/api/api-keys', { name: `Burst Key ${i}`, applicationId: i % 2 ? owner.app.id : null }, { token: owner.token }),
        );
        expect(created).toBe(2);
        expect(refused).toHaveLength(18);
        for (const r of refused) {
          expect(r.status).toBe(402);
          expect(r.body).toEqual({ statusCode: 402, error: 'Payment Required', message: expect.stringMatching(/Free plan allows 2 API keys/) });
        }
        expect((await stack.client.get('/api/api-keys', { token: owner.token })).body).toHaveLength(2);
        expect((await usage(owner.token)).usage.apiKeys).toBe(2);
      });
    });

    it('gets a 402 past 1,000 messages a month, even on an own key', async () => {
      const owner = await anOwner();
      await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token });
      expect((await owner.chat()).status).toBe(200);
      await db(`UPDATE usage_counters SET messages_used = 999 WHERE user_id = $1`, [owner.user.id]);
      expect((await owner.chat()).status).toBe(200);
      const refused = await owner.chat();
      expect(refused.status).toBe(402);
      expect(refused.body.message).toMatch(/1,000 messages per month/);
    });
  });

  describe('a paid plan', () => {
    it('answers on the platform key and counts the tokens the provider reported', async () => {
      const owner = await anOwner('starter');
      stack.emulator!.reset();
      const answer = await owner.chat();
      expect(answer.status).toBe(200);
      expect(stack.emulator!.requests.map((r) => r.apiKey)).toEqual([PLATFORM_KEYS.provider_a]);
      expect((await usage(owner.token)).usage).toMatchObject({
        tokensUsed: answer.body.usage.totalTokens,
        tokensReserved: 0,
        tokensRemaining: 100_000 - answer.body.usage.totalTokens,
        messages: 1,
      });
    });

    it('prefers the own key when there is one, and goes back to the platform key after deleting it', async () => {
      const owner = await anOwner('pro');
      await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token });
      stack.emulator!.reset();
      await owner.chat();
      await stack.client.delete('/api/provider-keys/provider_a', { token: owner.token });
      await owner.chat();
      expect(stack.emulator!.requests.map((r) => r.apiKey)).toEqual([OWN_KEY, PLATFORM_KEYS.provider_a]);
    });

    it('counts streamed answers too, releasing the hold when the stream ends', async () => {
      const owner = await anOwner('pro');
      const res = await fetch(`${stack.client.baseUrl}/api/conversations/${owner.conversationId}/stream`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${owner.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'Stream this please' }),
      });
      const events = (await res.text()).split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice(6)));
      const done = events.find((e) => e.type === 'done');
      expect(done).toBeDefined();
      expect((await usage(owner.token)).usage).toMatchObject({ tokensUsed: done.usage.totalTokens, tokensReserved: 0, messages: 1 });
    });

    it('gives the message back when the provider fails', async () => {
      const owner = await anOwner('starter');
      stack.emulator!.behaviour.failStatus = 500;
      try {
        expect((await owner.chat()).status).toBe(502);
      } finally {
        stack.emulator!.reset();
      }
      expect((await usage(owner.token)).usage).toMatchObject({ tokensUsed: 0, tokensReserved: 0, messages: 0 });
    });

    it.each([
      ['starter', 100_000, 0.001],
      ['pro', 500_000, 0.0008],
    ] as const)('on %s, records overage past the included tokens instead of refusing', async (plan, included, ratePer1k) => {
      const owner = await anOwner(plan);
      expect((await owner.chat()).status).toBe(200);
      await seedTokensUsed(owner.user.id, included - 5);
      const answer = await owner.chat();
      expect(answer.status).toBe(200);
      const overage = answer.body.usage.totalTokens - 5;
      expect((await usage(owner.token)).usage).toMatchObject({
        tokensUsed: included + overage,
        tokensRemaining: 0,
        overageTokens: overage,
        overageCostUsd: Math.round((overage / 1000) * ratePer1k * 1e6) / 1e6,
      });
    });

    it('is unlimited on Enterprise', async () => {
      const owner = await anOwner('enterprise');
      expect((await owner.chat()).status).toBe(200);
      await seedTokensUsed(owner.user.id, 10_000_000);
      expect((await owner.chat()).status).toBe(200);
      expect((await usage(owner.token)).usage).toMatchObject({ overageTokens: 0, tokensRemaining: null });
    });

    it('treats a canceled subscription as Free', async () => {
      const owner = await anOwner('pro', 'canceled');
      expect((await owner.chat()).status).toBe(402);
      expect(await usage(owner.token)).toMatchObject({ plan: 'pro', status: 'canceled', effectivePlan: 'free' });
    });
  });

  describe('50 concurrent requests at the edge of the quota', () => {
    /** The owner's usage counters straight from the database. */
    const counters = async (userId: string) => {
      const [row] = await db(`SELECT tokens_used::int AS used, tokens_reserved::int AS reserved, overage_tokens::int AS overage, messages_used AS messages FROM usage_counters WHERE user_id = $1`, [userId]);
      return row as { used: number; reserved: number; overage: number; messages: number };
    };

    it('with a hard limit (trialing), overspend by at most one request and refuse the rest with 402', async () => {
      const owner = await anOwner('starter', 'trialing');
      expect((await owner.chat()).status).toBe(200);
      await seedTokensUsed(owner.user.id, 100_000 - 30);
      await db(`UPDATE usage_counters SET messages_used = 0 WHERE user_id = $1`, [owner.user.id]);
      stack.emulator!.reset();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => owner.chat(`Concurrent question number ${i}`)));
      const answered = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status !== 200);
      expect(answered.length).toBeGreaterThanOrEqual(1);
      expect(refused.every((r) => r.status === 402 && /platform tokens of the Starter plan are used up/.test(r.body.message))).toBe(true);
      const totals = answered.map((r) => r.body.usage.totalTokens as number);
      const c = await counters(owner.user.id);
      expect(c).toMatchObject({ used: 100_000 - 30 + totals.reduce((a, b) => a + b, 0), reserved: 0, messages: answered.length });
      // Past the limit by less than one answer: each admitted request found room left when it started.
      expect(c.used - 100_000).toBeLessThan(Math.max(...totals));
      expect(stack.emulator!.requests).toHaveLength(answered.length);
    });

    it('with overage (active), answer them all and count every token exactly once', async () => {
      const owner = await anOwner('starter');
      expect((await owner.chat()).status).toBe(200);
      await seedTokensUsed(owner.user.id, 100_000 - 500);
      await db(`UPDATE usage_counters SET messages_used = 0 WHERE user_id = $1`, [owner.user.id]);
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => owner.chat(`Concurrent question number ${i}`)));
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      const sum = results.reduce((a, r) => a + (r.body.usage.totalTokens as number), 0);
      expect(await counters(owner.user.id)).toEqual({ used: 100_000 - 500 + sum, reserved: 0, overage: sum - 500, messages: 50 });
    });
  });
});
