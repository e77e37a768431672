import { startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';

const weather = {
  name: 'get_weather',
  description: 'The current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  source: { type: 'http', method: 'GET', url: 'https://api.weather.example/v1/now?city={{args.city}}', headers: { Authorization: 'Bearer {{secrets.TOKEN}}' } },
  secrets: { TOKEN: 'wx-secret-token-123456' },
};

describe('application tools and agent settings', () => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;
  let other: Awaited<ReturnType<typeof userWithApplication>>;

  beforeAll(async () => {
    stack = await startCoreApi();
    owner = await userWithApplication(stack.client);
    other = await userWithApplication(stack.client);
  });
  afterAll(() => stack?.close());

  const base = () => `/api/applications/${owner.app.id}`;

  it('creates, lists, reads, changes and deletes a tool, never showing its secrets', async () => {
    const created = await stack.client.post(`${base()}/tools`, weather, { token: owner.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'get_weather', secretNames: ['TOKEN'], timeoutMs: 10_000, source: { type: 'http', method: 'GET' } });
    expect(created.text).not.toContain('wx-secret-token');
    const id = created.body.id;

    const list = await stack.client.get(`${base()}/tools`, { token: owner.token });
    expect(list.body.map((t: { id: string }) => t.id)).toEqual([id]);
    expect(list.text).not.toContain('wx-secret-token');

    const changed = await stack.client.put(`${base()}/tools/${id}`, { description: 'Weather now', timeoutMs: 2000, secrets: { TOKEN: null } }, { token: owner.token });
    // The header still names TOKEN, which would be gone: refused, naming the header.
    expect(changed.status).toBe(400);
    expect(changed.body.details[0].path).toBe('source.headers.Authorization');

    const ok = await stack.client.put(`${base()}/tools/${id}`, { description: 'Weather now', timeoutMs: 2000 }, { token: owner.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ description: 'Weather now', timeoutMs: 2000, secretNames: ['TOKEN'] });
    expect((await stack.client.get(`${base()}/tools/${id}`, { token: owner.token })).body.description).toBe('Weather now');

    expect((await stack.client.delete(`${base()}/tools/${id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`${base()}/tools/${id}`, { token: owner.token })).status).toBe(404);
  });

  it.each([
    ['name', { ...weather, name: 'has space' }],
    ['name', { ...weather, name: 'x'.repeat(65) }],
    ['parameters.type', { ...weather, parameters: { type: 'string' } }],
    ['parameters', { ...weather, parameters: { type: 'object', properties: { city: { type: 'strnig' } } } }],
    ['parameters', { ...weather, parameters: { type: 'object', propertees: {} } }],
    ['parameters', { ...weather, parameters: { type: 'object', $async: true } }],
    ['parameters', { ...weather, parameters: { type: 'object', properties: { a: { $ref: 'https://schemas.example.com/a.json' } } } }],
    ['source.type', { ...weather, source: { type: 'ftp' } }],
    ['source.url', { ...weather, source: { ...weather.source, url: 'https://{{args.city}}.example/' } }],
    ['source.url', { ...weather, source: { ...weather.source, url: 'file:///etc/passwd' } }],
    ['source.headers.Authorization', { ...weather, source: { ...weather.source, headers: { Authorization: 'Bearer {{secrets.OTHER}}' } } }],
    ['source.headers.Host', { ...weather, source: { ...weather.source, headers: { Host: 'evil' } } }],
    ['source.builtin', { ...weather, source: { type: 'builtin', builtin: 'rm_rf' } }],
    ['secrets.TOKEN', { ...weather, secrets: { TOKEN: 'a\nb' } }],
    ['timeoutMs', { ...weather, timeoutMs: '5000' }],
  ])('refuses a tool with a bad %s with a 400 naming it', async (field, body) => {
    const res = await stack.client.post(`${base()}/tools`, body, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: expect.any(String) });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('takes a workflow tool only for a workflow of the same application', async () => {
    const mine = await stack.client.post('/api/workflows', { applicationId: owner.app.id, name: 'Mine', steps: [{ id: 'a', kind: 'template', text: 'x' }] }, { token: owner.token });
    const theirs = await stack.client.post('/api/workflows', { applicationId: other.app.id, name: 'Theirs', steps: [{ id: 'a', kind: 'template', text: 'x' }] }, { token: other.token });
    const tool = (workflowId: string) => ({ name: 'wf_tool', description: 'Runs a workflow', source: { type: 'builtin', builtin: 'run_workflow', workflowId } });
    const refused = await stack.client.post(`${base()}/tools`, tool(theirs.body.id), { token: owner.token });
    expect([refused.status, refused.body.details[0].path]).toEqual([400, 'source.workflowId']);
    const unknown = await stack.client.post(`${base()}/tools`, tool('00000000-0000-4000-8000-000000000000'), { token: owner.token });
    expect(unknown.status).toBe(400);
    const created = await stack.client.post(`${base()}/tools`, tool(mine.body.id), { token: owner.token });
    expect(created.status).toBe(201);
    const moved = await stack.client.put(`${base()}/tools/${created.body.id}`, { source: tool(theirs.body.id).source }, { token: owner.token });
    expect(moved.status).toBe(400);
  });

  it('keeps names unique per application', async () => {
    const first = await stack.client.post(`${base()}/tools`, { ...weather, name: 'unique_one' }, { token: owner.token });
    expect(first.status).toBe(201);
    expect((await stack.client.post(`${base()}/tools`, { ...weather, name: 'unique_one' }, { token: owner.token })).status).toBe(409);
    // Another application may use the same name.
    expect((await stack.client.post(`/api/applications/${other.app.id}/tools`, { ...weather, name: 'unique_one' }, { token: other.token })).status).toBe(201);
  });

  it("answers 404 for another user's tools and agent settings", async () => {
    const mine = await stack.client.post(`${base()}/tools`, { ...weather, name: 'private_tool' }, { token: owner.token });
    const url = `${base()}/tools/${mine.body.id}`;
    expect((await stack.client.get(`${base()}/tools`, { token: other.token })).status).toBe(404);
    expect((await stack.client.get(url, { token: other.token })).status).toBe(404);
    expect((await stack.client.put(url, { description: 'mine now' }, { token: other.token })).status).toBe(404);
    expect((await stack.client.delete(url, { token: other.token })).status).toBe(404);
    expect((await stack.client.post(`${base()}/tools`, { ...weather, name: 'sneaky' }, { token: other.token })).status).toBe(404);
    expect((await stack.client.get(`${base()}/agent`, { token: other.token })).status).toBe(404);
    expect((await stack.client.put(`${base()}/agent`, { maxToolRounds: 20 }, { token: other.token })).status).toBe(404);
    // A tool id of one application read under another application of its owner's is not found either.
    expect((await stack.client.get(`/api/applications/${other.app.id}/tools/${mine.body.id}`, { token: other.token })).status).toBe(404);
    expect((await stack.client.get(url, { token: owner.token })).body.description).toBe(weather.description);
  });

  it('keeps agent settings with defaults and bounds', async () => {
    const defaults = await stack.client.get(`${base()}/agent`, { token: owner.token });
    expect(defaults.body).toEqual({ enabledTools: [], toolChoice: 'auto', maxToolRounds: 5, timeBudgetMs: 60_000, parallelCalls: true });
    await stack.client.post(`${base()}/tools`, { name: 'kb', description: 'Search the knowledge base', parameters: { type: 'object', properties: { query: { type: 'string' } } }, source: { type: 'builtin', builtin: 'search_knowledge' } }, { token: owner.token });
    const saved = await stack.client.put(`${base()}/agent`, { enabledTools: ['kb'], toolChoice: { name: 'kb' }, maxToolRounds: 20, parallelCalls: false }, { token: owner.token });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ enabledTools: ['kb'], toolChoice: { name: 'kb' }, maxToolRounds: 20, timeBudgetMs: 60_000, parallelCalls: false });
    expect((await stack.client.get(`${base()}/agent`, { token: owner.token })).body).toEqual(saved.body);

    for (const [body, field] of [
      [{ maxToolRounds: 21 }, 'maxToolRounds'],
      [{ maxToolRounds: 0 }, 'maxToolRounds'],
      [{ enabledTools: ['nope'] }, 'enabledTools'],
      [{ toolChoice: 'sometimes' }, 'toolChoice'],
      [{ toolChoice: { name: 'unique_one' } }, 'toolChoice.name'],
      [{ timeBudgetMs: 10 }, 'timeBudgetMs'],
      [{ parallelCalls: 'yes' }, 'parallelCalls'],
    ] as const) {
      const res = await stack.client.put(`${base()}/agent`, body, { token: owner.token });
      expect([res.status, res.body.details?.[0]?.path]).toEqual([400, field]);
    }
    expect((await stack.client.get(`${base()}/agent`, { token: owner.token })).body).toEqual(saved.body);
  });
});
