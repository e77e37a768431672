import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';

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
});
