import { PLATFORM_KEYS, startCoreApi, type TestStack } from '../../support/test-stack';
import { teamApplication, teamWithEveryRole, type TeamWorld } from './team-support';

/**
 * A team's own provider keys serve its applications' turns when the team's setting is on, like a
 * user's own keys: they reach the provider and bypass the platform quota. Otherwise the team Owner's
 * plan decides, as for any application of theirs.
 */
describe('teams: the team\'s provider keys and its Owner\'s plan', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true });
  }, 60_000);
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  const TEAM_KEY = 'sk-team-shared-key-7777';
  const chat = async (world: TeamWorld, appId: string, body: Record<string, unknown> = { content: 'hello team', provider: 'provider_a' }) => {
    const token = world.users.viewer.token;
    const conv = await stack.client.post('/api/conversations', { applicationId: appId }, { token });
    expect(conv.status).toBe(201);
    return stack.client.post(`/api/conversations/${conv.body.id}/messages`, body, { token });
  };
  const lastKey = (provider: string) => stack.emulator!.requests.filter((r) => r.provider === provider).at(-1)?.apiKey;

  it('on a Free Owner: 402 without a team key; with the setting on and a key, the key reaches the provider', async () => {
    const world = await teamWithEveryRole(stack, 'free');
    const app = await teamApplication(stack, world);
    const { owner, admin } = world.users;
    expect((await chat(world, app.id)).status).toBe(402);
    expect((await stack.client.put(`/api/teams/${world.teamId}/provider-keys/provider_a`, { apiKey: TEAM_KEY }, { token: admin.token })).status).toBe(200);
    // The setting is off: the key is kept but not used.
    expect((await chat(world, app.id)).status).toBe(402);
    expect(stack.emulator!.requests).toHaveLength(0);
    expect((await stack.client.put(`/api/teams/${world.teamId}`, { settings: { sharedProviderKeys: true } }, { token: owner.token })).status).toBe(200);
    const answered = await chat(world, app.id);
    expect(answered.status).toBe(200);
    expect(lastKey('provider_a')).toBe(TEAM_KEY);
    // The key is stored sealed and shown as a hint only.
    const listed = await stack.client.get(`/api/teams/${world.teamId}/provider-keys`, { token: admin.token });
    expect(listed.body).toEqual([expect.objectContaining({ provider: 'provider_a', keyHint: '7777' })]);
    expect(listed.text).not.toContain(TEAM_KEY);
    const stored: Array<{ sealed_key: string }> = await stack.infra.dataSource.query(`SELECT sealed_key FROM team_provider_keys WHERE team_id = $1`, [world.teamId]);
    expect(stored[0]!.sealed_key).not.toContain(TEAM_KEY);
    // Deleted, the Free plan's 402 is back.
    expect((await stack.client.delete(`/api/teams/${world.teamId}/provider-keys/provider_a`, { token: admin.token })).status).toBe(204);
    expect((await chat(world, app.id)).status).toBe(402);
  });

  it('bypasses the exhausted quota of the Owner\'s paid plan, which otherwise applies to the team\'s applications', async () => {
    const world = await teamWithEveryRole(stack, 'pro');
    const app = await teamApplication(stack, world);
    const { owner } = world.users;
    // Past due, the plan allows no overage: once its included tokens are spent, platform turns are refused.
    await stack.setPlan(owner.user.id, 'pro', 'past_due');
    const platform = await chat(world, app.id);
    expect(platform.status).toBe(200);
    expect(lastKey('provider_a')).toBe(PLATFORM_KEYS.provider_a);
    // The turn counted against the Owner's usage, not the Viewer's who sent it.
    const counters: Array<{ user_id: string }> = await stack.infra.dataSource.query(`SELECT user_id FROM usage_counters WHERE user_id = ANY($1::uuid[]) AND messages_used > 0`, [[owner.user.id, world.users.viewer.user.id]]);
    expect(counters.map((c) => c.user_id)).toEqual([owner.user.id]);
    await stack.infra.dataSource.query(`UPDATE usage_counters SET tokens_used = 1000000000 WHERE user_id = $1`, [owner.user.id]);
    expect((await chat(world, app.id)).status).toBe(402);
    await stack.client.put(`/api/teams/${world.teamId}/provider-keys/provider_a`, { apiKey: TEAM_KEY }, { token: owner.token });
    await stack.client.put(`/api/teams/${world.teamId}`, { settings: { sharedProviderKeys: true } }, { token: owner.token });
    expect((await chat(world, app.id)).status).toBe(200);
    expect(lastKey('provider_a')).toBe(TEAM_KEY);
  });

  it('answers a turn that names no provider on the team\'s default provider, with its key', async () => {
    const world = await teamWithEveryRole(stack, 'free');
    const app = await teamApplication(stack, world);
    const { admin } = world.users;
    await stack.client.put(`/api/teams/${world.teamId}/provider-keys/provider_b`, { apiKey: 'sk-ant-team-key-4242' }, { token: admin.token });
    await stack.client.put(`/api/teams/${world.teamId}`, { settings: { sharedProviderKeys: true, defaultProvider: 'provider_b' } }, { token: admin.token });
    const answered = await chat(world, app.id, { content: 'which provider?' });
    expect(answered.status).toBe(200);
    expect(answered.body.provider).toBe('provider_b');
    expect(lastKey('provider_b')).toBe('sk-ant-team-key-4242');
  });

  it('refuses a key of the wrong provider and bad provider names', async () => {
    const world = await teamWithEveryRole(stack, 'free');
    const { admin } = world.users;
    expect((await stack.client.put(`/api/teams/${world.teamId}/provider-keys/provider_b`, { apiKey: 'sk-not-anthropic' }, { token: admin.token })).status).toBe(400);
    expect((await stack.client.put(`/api/teams/${world.teamId}/provider-keys/provider_x`, { apiKey: 'sk-abc' }, { token: admin.token })).status).toBe(400);
    expect((await stack.client.delete(`/api/teams/${world.teamId}/provider-keys/provider_c`, { token: admin.token })).status).toBe(404);
    expect((await stack.client.get(`/api/teams/${world.teamId}/provider-keys`, { token: admin.token })).body).toEqual([]);
  });
});
