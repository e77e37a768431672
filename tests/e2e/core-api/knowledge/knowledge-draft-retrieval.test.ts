import { postStream, readSseEvents } from '../../../support/sse';
import { startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { settled, uploadDocument } from './knowledge-documents';

const PASSAGES = [
  'Returns are accepted within 60 days of purchase with the receipt.',
  'Returned gadgets are refunded to the original payment method.',
  'A return without a receipt is refunded as store credit.',
];

// Retrieval settings per studio draft: the debug chat retrieves with the draft's, end users with the application's until Publish.
describe('core API: retrieval settings of a studio draft', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true });
  });
  afterAll(() => stack.close());

  it('a draft with top-K 1 cites one passage in the debug chat while end users keep the application’s settings; publishing makes them the application’s', async () => {
    const owner = await userWithApplication(stack.client, { name: 'Returns Desk' });
    const { token, app } = owner;
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-returns-desk-key' }, { token })).status).toBe(200);
    for (const [i, text] of PASSAGES.entries()) {
      const up = await uploadDocument(stack.client, token, { applicationId: app.id }, { name: `returns-${i}.txt`, text });
      expect(await settled(stack.client, token, up.body.id)).toMatchObject({ status: 'ready' });
    }
    const studio = `/api/applications/${app.id}/studio`;
    const question = 'How are returns refunded?';

    expect((await stack.client.put(`${studio}/draft`, { retrieval: { topK: 0 } }, { token })).status).toBe(400);
    expect((await stack.client.put(`${studio}/draft`, { retrieval: 'many' }, { token })).status).toBe(400);
    const saved = await stack.client.put(`${studio}/draft`, { retrieval: { topK: 1, scoreThreshold: 0 } }, { token });
    expect(saved.status).toBe(200);
    expect(saved.body.config.retrieval).toEqual({ mode: null, topK: 1, scoreThreshold: 0, rerank: false });

    const res = await postStream(`${stack.listening.url}${studio}/debug/stream`, { content: question }, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    const done = (await readSseEvents(res)).at(-1);
    expect(done.type).toBe('done');
    expect(done.sources).toHaveLength(1);

    // End users' chats still use the application's settings (top 8, built-in floor): more than one passage.
    const conversation = await stack.client.post('/api/conversations', { applicationId: app.id }, { token });
    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: question }, { token });
    expect(answer.body.sources.length).toBeGreaterThan(1);
    expect((await stack.client.get(`/api/knowledge/settings/${app.id}`, { token })).body).toMatchObject({ topK: 8, scoreThreshold: null });

    expect((await stack.client.post(`${studio}/publish`, { note: 'One passage' }, { token })).status).toBe(201);
    expect((await stack.client.get(`/api/knowledge/settings/${app.id}`, { token })).body).toMatchObject({ topK: 1, scoreThreshold: 0 });
    const after = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: question }, { token });
    expect(after.body.sources).toHaveLength(1);

    // null: the draft goes back to the application's settings.
    const cleared = await stack.client.put(`${studio}/draft`, { retrieval: null }, { token });
    expect(cleared.status).toBe(200);
    expect(cleared.body.config.retrieval).toBeUndefined();
  });
});
