import { startCoreApi, type TestStack } from '../../support/test-stack';
import { teamApplication, teamWithEveryRole } from './team-support';

/**
 * Connections a team holds (docs/connections.md): its Admins and Owner save them, every member sees them and
 * the team's applications answer through them; the one team policy (core/access) authorizes each call, so
 * a non-member gets the 404 of a connection that does not exist and a Member or Viewer a 403 on changes.
 */
describe('teams: the team\'s connections', () => {
  let stack: TestStack;
  const KEY = 'sk-team-connection-5151';
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, env: { CONNECTIONS_ALLOW_HTTP: 'true', CONNECTIONS_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8' } });
  }, 60_000);
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  it('an Admin saves one for the team; members list and use it; others get 404, and only Admins and the Owner change it', async () => {
    const world = await teamWithEveryRole(stack);
    const { owner, admin, member, viewer, outsider } = world.users;
    const body = { teamId: world.teamId, name: 'team-llm', baseUrl: `${stack.emulator!.url}/provider_a/v1`, apiKey: KEY };

    // A Member may not add one; an outsider does not even see the team.
    expect((await stack.client.post('/api/connections', body, { token: member.token })).status).toBe(403);
    expect((await stack.client.post('/api/connections', body, { token: outsider.token })).status).toBe(404);
    const saved = await stack.client.post('/api/connections', body, { token: admin.token });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ teamId: world.teamId, name: 'team-llm', hasKey: true });
    expect(saved.text).not.toContain(KEY);
    const id = saved.body.id;
    // The same name again in the team is a conflict; the Admin's personal list does not hold it.
    expect((await stack.client.post('/api/connections', body, { token: owner.token })).status).toBe(409);
    expect((await stack.client.get('/api/connections', { token: admin.token })).body.data).toEqual([]);

    // Every member sees it (they pick models with it).
    for (const who of [owner, admin, member, viewer]) {
      const listed = await stack.client.get(`/api/connections?teamId=${world.teamId}`, { token: who.token });
      expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([id]);
      expect((await stack.client.get(`/api/connections/${id}`, { token: who.token })).status).toBe(200);
    }

    // Another user, whatever the route: the 404 of a connection that does not exist.
    expect((await stack.client.get(`/api/connections?teamId=${world.teamId}`, { token: outsider.token })).status).toBe(404);
    expect((await stack.client.get(`/api/connections/${id}`, { token: outsider.token })).status).toBe(404);
    expect((await stack.client.patch(`/api/connections/${id}`, { name: 'taken-over' }, { token: outsider.token })).status).toBe(404);
    expect((await stack.client.post(`/api/connections/${id}/test`, {}, { token: outsider.token })).status).toBe(404);
    expect((await stack.client.post(`/api/connections/${id}/models`, {}, { token: outsider.token })).status).toBe(404);
    expect((await stack.client.delete(`/api/connections/${id}`, { token: outsider.token })).status).toBe(404);
    // Members and Viewers see it but may not change it.
    expect((await stack.client.patch(`/api/connections/${id}`, { name: 'renamed' }, { token: member.token })).status).toBe(403);
    expect((await stack.client.delete(`/api/connections/${id}`, { token: viewer.token })).status).toBe(403);
    expect((await stack.client.post(`/api/connections/${id}/test`, {}, { token: admin.token })).body).toMatchObject({ ok: true });

    // The team's application answers through it, whoever of the team chats; an outsider's application cannot name it.
    const app = await teamApplication(stack, world);
    const conversation = (await stack.client.post('/api/conversations', { applicationId: app.id }, { token: viewer.token })).body.id;
    const answer = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'hello team', provider: 'team-llm', model: 'gpt-4o-mini' }, { token: viewer.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ provider: 'team-llm', model: 'gpt-4o-mini' });
    expect(stack.emulator!.requests.find((r) => r.path === '/v1/chat/completions')?.apiKey).toBe(KEY);
    const config = await stack.client.post('/api/model-configs', { applicationId: app.id, name: 'On the team endpoint', provider: 'team-llm', modelId: 'gpt-4o-mini' }, { token: admin.token });
    expect(config.status).toBe(201);

    const theirs = (await stack.client.post('/api/applications', { name: 'Outsider app' }, { token: outsider.token })).body.id;
    expect((await stack.client.post('/api/model-configs', { applicationId: theirs, name: 'Borrowed', provider: 'team-llm', modelId: 'gpt-4o-mini' }, { token: outsider.token })).status).toBe(400);
    const outsiderConversation = (await stack.client.post('/api/conversations', { applicationId: theirs }, { token: outsider.token })).body.id;
    expect((await stack.client.post(`/api/conversations/${outsiderConversation}/messages`, { content: 'hi', provider: 'team-llm', model: 'gpt-4o-mini' }, { token: outsider.token })).status).toBe(400);

    // The Owner removes it.
    expect((await stack.client.delete(`/api/connections/${id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`/api/connections/${id}`, { token: admin.token })).status).toBe(404);
  });

  it('a team connection belongs to the team: it outlives the account of the Admin who added it, which takes only their personal ones', async () => {
    const world = await teamWithEveryRole(stack);
    const { owner, admin, viewer } = world.users;
    const baseUrl = `${stack.emulator!.url}/provider_a/v1`;
    const team = await stack.client.post('/api/connections', { teamId: world.teamId, name: 'kept-llm', baseUrl, apiKey: KEY }, { token: admin.token });
    expect(team.status).toBe(201);
    const personal = await stack.client.post('/api/connections', { name: 'admins-own', baseUrl }, { token: admin.token });
    expect(personal.status).toBe(201);

    expect((await stack.client.delete('/api/users/me', { token: admin.token, body: { password: admin.password } })).status).toBe(204);

    // Still the team's: listed for its members, changed by its Owner, and its applications still answer through it.
    const listed = await stack.client.get(`/api/connections?teamId=${world.teamId}`, { token: viewer.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: team.body.id, name: 'kept-llm', teamId: world.teamId, hasKey: true })]);
    expect((await stack.client.post(`/api/connections/${team.body.id}/test`, {}, { token: owner.token })).body).toMatchObject({ ok: true });
    const app = await teamApplication(stack, world);
    const conversation = (await stack.client.post('/api/conversations', { applicationId: app.id }, { token: viewer.token })).body.id;
    const answer = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'still there?', provider: 'kept-llm', model: 'gpt-4o-mini' }, { token: viewer.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ provider: 'kept-llm', model: 'gpt-4o-mini' });
    expect(stack.emulator!.requests.find((r) => r.path === '/v1/chat/completions')?.apiKey).toBe(KEY);
    // The departed Admin's personal connection went with their account; who added the team's is forgotten.
    const rows = (await stack.infra.dataSource.query(`SELECT id, owner_id, added_by FROM connections WHERE id = ANY($1::uuid[])`, [[team.body.id, personal.body.id]])) as Array<{ id: string; owner_id: string | null; added_by: string | null }>;
    expect(rows).toEqual([{ id: team.body.id, owner_id: null, added_by: null }]);
    expect((await stack.client.patch(`/api/connections/${team.body.id}`, { name: 'kept-llm-2' }, { token: owner.token })).body).toMatchObject({ name: 'kept-llm-2' });
  });
});
