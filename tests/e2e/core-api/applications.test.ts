import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';
import { teamWithEveryRole } from '../teams/team-support';

describe.each(DATABASE_KINDS)('core API: applications (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database });
  });
  afterAll(() => stack.close());

  it('creates, reads, updates, lists and deletes an application', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const created = await stack.client.post('/api/applications', { name: 'Support Bot', description: 'Answers questions' }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Support Bot', description: 'Answers questions', slug: expect.stringMatching(/^support-bot/) });
    const id = created.body.id;
    expect((await stack.client.get(`/api/applications/${id}`, { token })).body.name).toBe('Support Bot');
    const updated = await stack.client.put(`/api/applications/${id}`, { description: 'Better', allowedOrigins: ['https://shop.example.com'] }, { token });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Support Bot', description: 'Better', allowedOrigins: ['https://shop.example.com'] });
    const list = await stack.client.get('/api/applications', { token });
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body.map((a: { id: string }) => a.id)).toEqual([id]);
    expect((await stack.client.delete(`/api/applications/${id}`, { token })).status).toBe(204);
    expect((await stack.client.get(`/api/applications/${id}`, { token })).status).toBe(404);
  });

  it('keeps slugs unique across the platform', async () => {
    const a = await registerUser(stack.client);
    const b = await registerUser(stack.client);
    const first = await stack.client.post('/api/applications', { name: 'Same Name' }, { token: a.access_token });
    const second = await stack.client.post('/api/applications', { name: 'Same Name' }, { token: b.access_token });
    expect(first.body.slug).not.toBe(second.body.slug);
    const explicit = await stack.client.post('/api/applications', { name: 'X', slug: first.body.slug }, { token: b.access_token });
    expect(explicit.status).toBe(409);
  });

  it("answers 404 for another user's application on every route", async () => {
    const owner = await registerUser(stack.client);
    const other = await registerUser(stack.client);
    const app = await stack.client.post('/api/applications', { name: 'Private' }, { token: owner.access_token });
    const id = app.body.id;
    const token = other.access_token;
    expect((await stack.client.get(`/api/applications/${id}`, { token })).status).toBe(404);
    expect((await stack.client.put(`/api/applications/${id}`, { name: 'Mine now' }, { token })).status).toBe(404);
    expect((await stack.client.delete(`/api/applications/${id}`, { token })).status).toBe(404);
    expect((await stack.client.post(`/api/applications/${id}/theme`, { themeId: 'dark' }, { token })).status).toBe(404);
    expect((await stack.client.get('/api/applications', { token })).body).toEqual([]);
    expect((await stack.client.get(`/api/applications/${id}`, { token: owner.access_token })).body.name).toBe('Private');
  });

  it('answers 404 for ids that are not UUIDs', async () => {
    const { access_token: token } = await registerUser(stack.client);
    expect((await stack.client.get(`/api/applications/not-a-uuid`, { token })).status).toBe(404);
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'ok', slug: 'Bad Slug!' }, 'slug'],
    [{ name: 'ok', allowedOrigins: ['https://example.com/path'] }, 'allowedOrigins[0]'],
    [{ name: 'ok', teamId: 'not-a-team-id' }, 'teamId'],
    [{ name: 'ok', teamId: 7 }, 'teamId'],
  ])('answers 400 for %j', async (body, path) => {
    const { access_token: token } = await registerUser(stack.client);
    const res = await stack.client.post('/api/applications', body, { token });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('pages the list with page and limit', async () => {
    const { access_token: token } = await registerUser(stack.client);
    for (let i = 0; i < 3; i++) await stack.client.post('/api/applications', { name: `App ${i}` }, { token });
    const page2 = await stack.client.get('/api/applications?page=2&limit=2', { token });
    expect(page2.headers.get('x-total-count')).toBe('3');
    expect(page2.body).toHaveLength(1);
    expect((await stack.client.get('/api/applications?limit=101', { token })).status).toBe(400);
  });

  it('stores the theme selection and merges customizations', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const { body: app } = await stack.client.post('/api/applications', { name: 'Themed' }, { token });
    const chosen = await stack.client.post(`/api/applications/${app.id}/theme`, { themeId: 'dark' }, { token });
    expect(chosen.body.theme.themeId).toBe('dark');
    await stack.client.put(`/api/applications/${app.id}/theme/customize`, { colors: { primary: '#ff0000' } }, { token });
    const custom = await stack.client.put(
      `/api/applications/${app.id}/theme/customize`,
      { colors: { background: 'rgb(0, 0, 0)' }, typography: { fontFamily: 'Inter, sans-serif', fontSize: '15px' }, layout: { sidebarPosition: 'left', maxWidth: '1200px' } },
      { token },
    );
    expect(custom.status).toBe(200);
    expect(custom.body.theme.customization).toEqual({
      colors: { primary: '#ff0000', background: 'rgb(0, 0, 0)' },
      typography: { fontFamily: 'Inter, sans-serif', fontSize: '15px' },
      layout: { sidebarPosition: 'left', maxWidth: '1200px' },
    });
    const injected = await stack.client.put(`/api/applications/${app.id}/theme/customize`, { colors: { primary: 'red; } body { display:none' } }, { token });
    expect(injected.status).toBe(400);
  });

  describe('created directly in a team (teamId)', () => {
    const count = async (where: string, params: unknown[]) =>
      ((await stack.infra.dataSource.query(`SELECT count(*)::int AS n FROM applications WHERE ${where}`, params)) as Array<{ n: number }>)[0]!.n;

    it("creates it in the team in one request for an Admin: the team's Owner owns it, and the event says so", async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin, viewer } = world.users;
      const created = await stack.client.post('/api/applications', { name: 'Crew Desk', teamId: world.teamId.toUpperCase() }, { token: admin.token });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Crew Desk', teamId: world.teamId });
      const [row] = await stack.infra.dataSource.query(`SELECT owner_id, team_id FROM applications WHERE id = $1`, [created.body.id]);
      expect(row).toEqual({ owner_id: owner.user.id, team_id: world.teamId });
      const events: Array<{ owner_id: string }> = await stack.infra.dataSource.query(
        `SELECT owner_id FROM event_outbox WHERE type = 'application.created' AND application_id = $1`,
        [created.body.id],
      );
      expect(events).toEqual([{ owner_id: owner.user.id }]);
      // Every member sees it in the team's list; it is nobody's personal application.
      const teamList = await stack.client.get(`/api/applications?teamId=${world.teamId}`, { token: viewer.token });
      expect(teamList.body.map((a: { id: string }) => a.id)).toEqual([created.body.id]);
      expect((await stack.client.get('/api/applications?teamId=personal', { token: admin.token })).body).toEqual([]);
    });

    it('refuses a Member or Viewer with 403 and the reason, an unknown or foreign team with 404, and stores nothing', async () => {
      const world = await teamWithEveryRole(stack, 'pro');
      const { member, viewer, admin } = world.users;
      for (const who of [member, viewer]) {
        const refused = await stack.client.post('/api/applications', { name: 'Refused In Team', teamId: world.teamId }, { token: who.token });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ statusCode: 403, error: 'Forbidden', message: expect.stringMatching(/needs the Admin role there; yours is (member|viewer)/) });
      }
      // Another team (whose Owner is an outsider), and a team that does not exist: the same 404 the transfer answers.
      for (const teamId of [world.outsiderTeamId, '00000000-0000-4000-8000-000000000000']) {
        const missing = await stack.client.post('/api/applications', { name: 'Refused In Team', teamId }, { token: admin.token });
        expect(missing.status).toBe(404);
        expect(missing.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
      }
      expect(await count(`name = $1`, ['Refused In Team'])).toBe(0);
    });

    it("checks the team Owner's plan, not the caller's: a full personal plan does not stop it, a full Owner's plan does", async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin } = world.users;
      const create = (name: string, teamId?: string) => stack.client.post('/api/applications', { name, ...(teamId ? { teamId } : {}) }, { token: admin.token });
      // The Admin fills their own Free plan (3 applications).
      for (const name of ['Own 1', 'Own 2', 'Own 3']) expect((await create(name)).status).toBe(201);
      expect((await create('Own 4')).status).toBe(402);
      // The team's Owner (Free too) still has room for three: the Admin creates them in the team.
      for (const name of ['Team 1', 'Team 2', 'Team 3']) expect((await create(name, world.teamId)).status).toBe(201);
      expect(await count(`owner_id = $1 AND team_id = $2`, [owner.user.id, world.teamId])).toBe(3);
      // Now the Owner's plan is full: refused with 402, nothing stored, not even as the Admin's own.
      const full = await create('Team 4', world.teamId);
      expect(full.status).toBe(402);
      expect(full.body.message).toMatch(/^The team owner's plan allows 3 applications/);
      expect(await count(`name = $1`, ['Team 4'])).toBe(0);
      expect(await count(`owner_id = $1`, [admin.user.id])).toBe(3);
    });
  });

  describe('moved into a team (transfer)', () => {
    const holder = async (id: string) =>
      ((await stack.infra.dataSource.query(`SELECT owner_id, team_id FROM applications WHERE id = $1`, [id])) as Array<{ owner_id: string; team_id: string | null }>)[0];

    it("checks the team Owner's plan as a creation there does: 402 with the same body past it and nothing moves; the Owner's own is not counted twice", async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin } = world.users;
      const post = (path: string, body: object, token: string) => stack.client.post(path, body, { token });
      // The Owner (Free: 3 applications) holds two personal ones and one the Admin made in the team.
      const ownerOne = (await post('/api/applications', { name: 'Owner One' }, owner.token)).body;
      const ownerTwo = (await post('/api/applications', { name: 'Owner Two' }, owner.token)).body;
      expect((await post('/api/applications', { name: 'Team One', teamId: world.teamId }, admin.token)).status).toBe(201);
      // At the limit, the Owner's own application still moves into the team.
      const ownMove = await post(`/api/applications/${ownerTwo.id}/transfer`, { teamId: world.teamId }, owner.token);
      expect(ownMove.status).toBe(200);
      expect(await holder(ownerTwo.id)).toEqual({ owner_id: owner.user.id, team_id: world.teamId });
      // The Admin's own would take the Owner past it: the 402 a creation in the team gets, and nothing moves.
      const adminsApp = (await post('/api/applications', { name: 'Admin Own' }, admin.token)).body;
      const created = await post('/api/applications', { name: 'Team Two', teamId: world.teamId }, admin.token);
      const moved = await post(`/api/applications/${adminsApp.id}/transfer`, { teamId: world.teamId }, admin.token);
      expect(created.status).toBe(402);
      expect(moved.status).toBe(402);
      expect(moved.body).toEqual(created.body);
      // It says whose plan is full (not the Admin's), without naming the Owner.
      expect(moved.body).toMatchObject({ statusCode: 402, error: 'Payment Required', message: expect.stringContaining("The team owner's plan allows 3 applications") });
      expect(moved.body.message).not.toContain(owner.email);
      expect(moved.body.message).not.toMatch(/upgrade your plan/);
      // The Owner, refused on their own plan, is told it is theirs.
      const ownerRefused = await post('/api/applications', { name: 'Owner Three' }, owner.token);
      expect(ownerRefused.body).toMatchObject({ statusCode: 402, message: expect.stringMatching(/^The Free plan allows 3 applications, and all are in use\. To create another application, ask the platform's administrator to raise your plan\.$/) });
      expect(await holder(adminsApp.id)).toEqual({ owner_id: admin.user.id, team_id: null });
      expect((await stack.client.get(`/api/applications/${adminsApp.id}`, { token: admin.token })).body).toMatchObject({ teamId: null });
      // Once the Owner has room again, the same move goes through.
      expect((await stack.client.delete(`/api/applications/${ownerOne.id}`, { token: owner.token })).status).toBe(204);
      const retried = await post(`/api/applications/${adminsApp.id}/transfer`, { teamId: world.teamId }, admin.token);
      expect(retried.status).toBe(200);
      expect(await holder(adminsApp.id)).toEqual({ owner_id: owner.user.id, team_id: world.teamId });
    });
  });

  it("counts a team application's API keys against the team Owner's plan, and the 402 says it is theirs", async () => {
    const world = await teamWithEveryRole(stack, 'free');
    const { owner, admin } = world.users;
    const app = (await stack.client.post('/api/applications', { name: 'Keyed Team App', teamId: world.teamId }, { token: admin.token })).body;
    const createKey = (token: string, applicationId?: string) => stack.client.post('/api/api-keys', { name: 'Server', ...(applicationId ? { applicationId } : {}) }, { token });
    // The Free plan allows 2 API keys: the Admin's keys of the team's application are the Owner's.
    for (let i = 0; i < 2; i++) expect((await createKey(admin.token, app.id)).status).toBe(201);
    const refused = await createKey(admin.token, app.id);
    expect(refused.status).toBe(402);
    expect(refused.body.message).toMatch(/^The team owner's plan allows 2 API keys, and all are in use\. To create another API key, ask the platform's administrator to raise the team owner's plan\.$/);
    expect(refused.body.message).not.toContain(owner.email);
    // The Admin's own plan is untouched; the Owner, refused on their own plan, is told it is theirs.
    expect((await createKey(admin.token)).status).toBe(201);
    expect((await createKey(owner.token)).body.message).toMatch(/^The Free plan allows 2 API keys, and all are in use\. To create another API key, ask the platform's administrator to raise your plan\.$/);
  });
});
