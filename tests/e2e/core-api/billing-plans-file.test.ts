import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_KINDS } from '../../support/test-database';
import { startCoreApi, userWithApplication, registerUser, type TestStack } from '../../support/test-stack';

const OWN_KEY = 'sk-own-plans-file-key-4242';

/** A self-hosted install's own plans (PLANS_FILE): what `/api/billing/plans` shows and what the quotas enforce. */
describe.each(DATABASE_KINDS)('core API with a PLANS_FILE (%s)', (database) => {
  const dir = mkdtempSync(join(tmpdir(), 'plans-file-e2e-'));
  const plansFile = join(dir, 'plans.json');
  let stack: TestStack;

  beforeAll(async () => {
    writeFileSync(
      plansFile,
      JSON.stringify({
        free: {
          name: 'Community',
          priceUsdPerMonth: 0,
          platformKeys: false,
          overageUsdPer1k: null,
          limits: { includedTokens: 0, applications: 2, messagesPerMonth: 2, apiKeys: null },
        },
      }),
    );
    stack = await startCoreApi({ database, providers: true, env: { PLANS_FILE: plansFile } });
  });
  afterAll(async () => {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the file's Free plan, and the defaults for the plans it leaves out", async () => {
    const res = await stack.client.get('/api/billing/plans');
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      id: 'free',
      name: 'Community',
      priceUsdPerMonth: 0,
      platformKeys: false,
      overageUsdPer1k: null,
      limits: { includedTokens: 0, applications: 2, messagesPerMonth: 2, apiKeys: null },
    });
    expect(res.body.slice(1).map((p: { id: string; limits: { messagesPerMonth: number | null } }) => [p.id, p.limits.messagesPerMonth])).toEqual([
      ['starter', 10_000],
      ['pro', 100_000],
      ['enterprise', null],
    ]);
  });

  it("enforces the file's message allowance, naming the plan, and shows it in the usage", async () => {
    const owner = await userWithApplication(stack.client);
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: OWN_KEY }, { token: owner.token })).status).toBe(200);
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const chat = () => stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Hello there', provider: 'provider_a' }, { token: owner.token });
    expect((await chat()).status).toBe(200);
    expect((await chat()).status).toBe(200);
    const refused = await chat();
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ statusCode: 402, error: 'Payment Required' });
    expect(refused.body.message).toMatch(/The Community plan allows 2 messages per month/);
    const usage = await stack.client.get('/api/billing/usage', { token: owner.token });
    expect(usage.body).toMatchObject({ plan: 'free', limits: { messagesPerMonth: 2, apiKeys: null }, usage: { messages: 2 } });
  });

  it("enforces the file's application limit and lifts the API-key limit it sets to null", async () => {
    const { access_token: token } = await registerUser(stack.client);
    for (let i = 0; i < 2; i++) expect((await stack.client.post('/api/applications', { name: `App ${i}` }, { token })).status).toBe(201);
    const third = await stack.client.post('/api/applications', { name: 'App 3' }, { token });
    expect(third.status).toBe(402);
    expect(third.body.message).toMatch(/Community plan allows 2 applications/);
    // The default Free plan stops at 2 API keys; this install's has no limit.
    for (let i = 0; i < 4; i++) expect((await stack.client.post('/api/api-keys', { name: `Key ${i}` }, { token })).status).toBe(201);
  });
});
