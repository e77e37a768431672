import { DATABASE_KINDS } from '../../support/test-database';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

type Session = Awaited<ReturnType<typeof registerUser>>;

describe.each(DATABASE_KINDS)('core API: prompt templates (%s)', (database) => {
  let stack: TestStack;
  let owner: Session;
  let stranger: Session;
  /** The owner's applications: one for templates in general, one whose default is switched around. */
  let app: { id: string };
  let defaultsApp: { id: string };

  beforeAll(async () => {
    stack = await startCoreApi({ database, providers: true });
    owner = await registerUser(stack.client);
    stranger = await registerUser(stack.client);
    const create = async () => (await stack.client.post('/api/applications', { name: 'Prompts' }, { token: owner.access_token })).body;
    app = await create();
    defaultsApp = await create();
  });
  afterAll(() => stack.close());

  const token = () => owner.access_token;
  const createTemplate = (body: Record<string, unknown>, as: string = token()) => stack.client.post('/api/prompts', body, { token: as });

  it('creates, reads, lists, updates and deletes templates, with variables from their placeholders', async () => {
    const created = await createTemplate({ applicationId: app.id, name: 'Welcome', content: 'Hello {{name}}, welcome to {{ company }}. Bye {{name}}.' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      applicationId: app.id,
      name: 'Welcome',
      content: 'Hello {{name}}, welcome to {{ company }}. Bye {{name}}.',
      variables: ['name', 'company'],
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    expect((await stack.client.get(`/api/prompts/${id}`, { token: token() })).body.name).toBe('Welcome');
    expect((await stack.client.get(`/api/prompts?applicationId=${app.id}`, { token: token() })).body.map((t: { id: string }) => t.id)).toContain(id);
    const updated = await stack.client.put(`/api/prompts/${id}`, { content: 'Hi {{first_name}}' }, { token: token() });
    expect(updated.body).toMatchObject({ name: 'Welcome', content: 'Hi {{first_name}}', variables: ['first_name'] });
    expect((await stack.client.delete(`/api/prompts/${id}`, { token: token() })).status).toBe(204);
    expect((await stack.client.get(`/api/prompts/${id}`, { token: token() })).status).toBe(404);
  });

  it.each([
    ['no content', { name: 'No content' }, 'content'],
    ['no name', { content: 'No name' }, 'name'],
    ['content over 20000 characters', { name: 'Too long', content: 'x'.repeat(20_001) }, 'content'],
    ['a name over 100 characters', { name: 'x'.repeat(101), content: 'x' }, 'name'],
    ['content that is not text', { name: 'Number', content: 42 }, 'content'],
  ])('answers 400 for %s, naming the field', async (_case, fields, path) => {
    const res = await createTemplate({ applicationId: app.id, ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('requires applicationId to list', async () => {
    expect((await stack.client.get('/api/prompts', { token: token() })).status).toBe(400);
  });

  it('keeps one default per application, also when switched concurrently', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createTemplate({ applicationId: defaultsApp.id, name: `T${i}`, content: `Prompt ${i}` })).body.id);
    const first = await stack.client.put(`/api/prompts/${ids[0]}/default`, undefined, { token: token() });
    expect(first.body).toMatchObject({ id: ids[0], isDefault: true });
    const switches = await Promise.all(Array.from({ length: 20 }, (_, i) => stack.client.put(`/api/prompts/${ids[i % ids.length]}/default`, undefined, { token: token() })));
    expect(switches.map((r) => r.status)).toEqual(Array(20).fill(200));
    const listed = (await stack.client.get(`/api/prompts?applicationId=${defaultsApp.id}`, { token: token() })).body;
    expect(listed.filter((t: { isDefault: boolean }) => t.isDefault)).toHaveLength(1);
    const [row] = await stack.infra.dataSource.query(`SELECT count(*)::int AS n FROM prompt_templates WHERE application_id = $1 AND is_default`, [defaultsApp.id]);
    expect(row.n).toBe(1);
  });

  describe('render', () => {
    const render = (body: unknown, as: string = token()) => stack.client.post('/api/prompts/render', body, { token: as });

    it('renders a stored template or given content with its variables', async () => {
      const t = (await createTemplate({ applicationId: app.id, name: 'Order', content: 'Dear {{name}}, order {{order}} ships {{when}}.' })).body;
      const res = await render({ templateId: t.id, variables: { name: 'Ada', order: 1042, when: 'today' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ rendered: 'Dear Ada, order 1042 ships today.', variables: ['name', 'order', 'when'] });
      expect((await render({ content: 'Plain {{ x }}', variables: { x: true } })).body).toEqual({ rendered: 'Plain true', variables: ['x'] });
    });

    it('answers 400 naming each placeholder that has no value', async () => {
      const res = await render({ content: '{{greeting}}, {{name}} from {{team}}', variables: { name: 'Ada' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/greeting.*team/) });
      expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['variables.greeting', 'variables.team']);
    });

    it('substitutes once: values are never scanned again nor evaluated', async () => {
      const res = await render({
        content: 'A={{a}} B={{b}} C={{ 7 * 7 }} D={{constructor}}',
        variables: { a: '{{b}}', b: '${process.env.JWT_SECRET} $& {{a}}', constructor: 'own value' },
      });
      expect(res.body.rendered).toBe('A={{b}} B=${process.env.JWT_SECRET} $& {{a}} C={{ 7 * 7 }} D=own value');
      expect((await render({ content: '{{toString}}', variables: {} })).status).toBe(400);
    });

    it.each([
      ['neither templateId nor content', { variables: {} }, 'templateId'],
      ['a value that is an object', { content: '{{a}}', variables: { a: { nested: 1 } } }, 'variables.a'],
      ['a value over 20000 characters', { content: '{{a}}', variables: { a: 'x'.repeat(20_001) } }, 'variables.a'],
      ['a result over 100000 characters', { content: '{{a}}'.repeat(4000), variables: { a: 'x'.repeat(100) } }, 'variables'],
      ['variables that are not an object', { content: 'x', variables: 'not an object' }, 'variables'],
    ])('answers 400 for %s', async (_case, body, path) => {
      const res = await render(body);
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });
  });

  it("answers 404 for another user's templates and applications on every route", async () => {
    const t = (await createTemplate({ applicationId: app.id, name: 'Private', content: 'Secret {{x}}' })).body;
    const as = stranger.access_token;
    const statuses = [
      (await stack.client.get(`/api/prompts?applicationId=${app.id}`, { token: as })).status,
      (await createTemplate({ applicationId: app.id, name: 'Mine', content: 'x' }, as)).status,
      (await stack.client.get(`/api/prompts/${t.id}`, { token: as })).status,
      (await stack.client.put(`/api/prompts/${t.id}`, { name: 'Mine' }, { token: as })).status,
      (await stack.client.put(`/api/prompts/${t.id}/default`, undefined, { token: as })).status,
      (await stack.client.delete(`/api/prompts/${t.id}`, { token: as })).status,
      (await stack.client.post('/api/prompts/render', { templateId: t.id, variables: { x: 1 } }, { token: as })).status,
      (await stack.client.get('/api/prompts/not-a-uuid', { token: as })).status,
    ];
    expect(statuses).toEqual(Array(statuses.length).fill(404));
    expect((await stack.client.get(`/api/prompts/${t.id}`, { token: token() })).body.content).toBe('Secret {{x}}');
    expect((await stack.client.get(`/api/prompts/${t.id}`)).status).toBe(401);
  });

  it("sends the application's default template to the provider as the system prompt", async () => {
    const saved = await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-prompts-test-1234' }, { token: token() });
    expect(saved.status).toBe(200);
    await createTemplate({ applicationId: defaultsApp.id, name: 'House voice', content: 'Answer like a pirate.', isDefault: true });
    const conversation = (await stack.client.post('/api/conversations', { applicationId: defaultsApp.id }, { token: token() })).body.id;
    stack.emulator!.reset();
    const res = await stack.client.post(`/api/conversations/${conversation}/messages`, { content: 'Hello', provider: 'provider_a' }, { token: token() });
    expect(res.status).toBe(200);
    expect(stack.emulator!.requests.at(-1)!.body.messages[0]).toEqual({ role: 'system', content: 'Answer like a pirate.' });
  });
});
