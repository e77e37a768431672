import { answerCost } from '../../../core/conversations/domain/answer-cost';
import { postStream, readSseEvents } from '../../support/sse';
import { paidUserWithApplication, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';
import { createKey } from '../public-api/public-api-support';

const cases = [...DATABASE_KINDS.map((db) => [db, 'remote'] as const), ['pglite', 'in-process'] as const];

describe.each(cases)('conversation titles, renames and answer costs (%s, engine %s)', (database, engine) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database, engine });
    owner = await paidUserWithApplication(stack);
  });
  afterAll(() => stack.close());

  const create = async (body: Record<string, unknown> = {}) => {
    const res = await stack.client.post('/api/conversations', { applicationId: owner.app.id, ...body }, { token: owner.token });
    expect(res.status).toBe(201);
    return res.body as { id: string; title: string };
  };
  const get = (id: string) => stack.client.get(`/api/conversations/${id}`, { token: owner.token });
  const stream = async (id: string, content: string) => {
    const res = await postStream(`${stack.listening.url}/api/conversations/${id}/stream`, { content, provider: 'provider_a', model: 'gpt-4o-mini' }, { Authorization: `Bearer ${owner.token}` });
    expect(res.status).toBe(200);
    return readSseEvents(res);
  };

  it('names a conversation created without a title after its first message, once', async () => {
    const created = await create();
    expect(created.title).toBe('New conversation');
    await stream(created.id, 'Could you please explain how the refund policy works for orders that were shipped abroad?\nThanks');
    const title = 'Could you please explain how the refund policy works for…';
    expect((await get(created.id)).body.title).toBe(title);
    await stream(created.id, 'A second question that must not rename it');
    expect((await get(created.id)).body.title).toBe(title);
    const listed = await stack.client.get(`/api/conversations?applicationId=${owner.app.id}`, { token: owner.token });
    expect(listed.body.find((c: { id: string }) => c.id === created.id).title).toBe(title);
  });

  it('keeps a title given at creation', async () => {
    const created = await create({ title: 'Kept as given' });
    await stream(created.id, 'Something else entirely');
    expect((await get(created.id)).body.title).toBe('Kept as given');
  });

  it('renames with PATCH, refuses an empty title, and hides the conversation from others', async () => {
    const created = await create();
    const res = await stack.client.patch(`/api/conversations/${created.id}`, { title: '  Refund for order 123456  ' }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, title: 'Refund for order 123456' });
    // Renamed before its first message: the message no longer names it.
    await stream(created.id, 'Now the first message');
    expect((await get(created.id)).body.title).toBe('Refund for order 123456');
    const empty = await stack.client.patch(`/api/conversations/${created.id}`, { title: '   ' }, { token: owner.token });
    expect(empty.status).toBe(400);
    expect(empty.body.details.map((d: { path: string }) => d.path)).toContain('title');
    const stranger = await registerUser(stack.client);
    expect((await stack.client.patch(`/api/conversations/${created.id}`, { title: 'Mine now' }, { token: stranger.access_token })).status).toBe(404);
  });

  it("gives each answer's model, usage, latency and cost in the stream's final event and in the stored messages", async () => {
    const created = await create();
    const events = await stream(created.id, 'Tell me about prices');
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', provider: 'provider_a', model: 'gpt-4o-mini', latencyMs: expect.any(Number), usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } });
    const expected = answerCost(stack.config.modelPrices, done);
    expect(expected).toBeGreaterThan(0);
    expect(done.cost).toBe(expected);
    const stored = (await get(created.id)).body.messages;
    expect(stored[0]).toMatchObject({ role: 'user', cost: null });
    expect(stored[1]).toMatchObject({ role: 'assistant', model: 'gpt-4o-mini', usage: done.usage, cost: expected });
    const answer = await stack.client.post(`/api/conversations/${created.id}/messages`, { content: 'Once more', provider: 'provider_a', model: 'gpt-4o-mini' }, { token: owner.token });
    expect(answer.body.cost).toBe(answerCost(stack.config.modelPrices, answer.body));
  });

  it("keeps the cost to the owner: the public API's stream and answer carry none", async () => {
    const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    const res = await postStream(`${stack.listening.url}/api/v1/chat/stream`, { applicationId: owner.app.id, message: 'Public question' }, { 'X-API-Key': key.key });
    expect(res.status).toBe(200);
    const done = (await readSseEvents(res)).at(-1);
    expect(done).toMatchObject({ type: 'done', model: expect.any(String), usage: expect.any(Object) });
    expect(done).not.toHaveProperty('cost');
    const whole = await stack.client.post('/api/v1/chat', { applicationId: owner.app.id, message: 'Another' }, { headers: { 'X-API-Key': key.key } });
    expect(whole.status).toBe(200);
    expect(whole.body).not.toHaveProperty('cost');
  });
});
