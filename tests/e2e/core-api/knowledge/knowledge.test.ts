import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_KINDS } from '../../../support/test-database';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { aDocx, aPdf, wordParagraph } from '../../../support/document-fixtures';
import { DOCUMENTS, settled, uploadDocument } from './knowledge-documents';

// On PGlite search runs on pgvector's HNSW index; on the test PostgreSQL (no pgvector) on the exact scan.
describe.each(DATABASE_KINDS)('core API: knowledge base (%s)', (database) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database });
    owner = await userWithApplication(stack.client, { name: 'Gadget Shop' });
    for (const [key, doc] of Object.entries(DOCUMENTS)) {
      const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, doc);
      if (res.status !== 202) throw new Error(`upload of ${doc.name} answered ${res.status}: ${res.text}`);
      ids[key] = res.body.id;
    }
  });
  afterAll(() => stack.close());

  const search = (query: string, extra = '', token = owner.token, applicationId = owner.app.id) =>
    stack.client.get(`/api/knowledge/search?applicationId=${applicationId}&query=${encodeURIComponent(query)}${extra}`, { token });

  it('answers at once with the document processing, then makes it ready', async () => {
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'extra.txt', text: 'A short note about tea.' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ applicationId: owner.app.id, fileName: 'extra.txt', format: 'txt', status: 'processing', progress: 0, chunkCount: 0, error: null });
    const done = await settled(stack.client, owner.token, res.body.id);
    expect(done).toMatchObject({ status: 'ready', progress: 100, chunkCount: 1, error: null, embeddingProvider: 'local', embeddingModel: 'local-hash-384', embeddingDimension: 384 });
  });

  it.each(Object.entries(DOCUMENTS).map(([key, doc]) => [doc.name, key]))('processes %s into searchable chunks', async (_name, key) => {
    const doc = await settled(stack.client, owner.token, ids[key]!);
    expect(doc).toMatchObject({ status: 'ready', chunkCount: expect.any(Number), embeddingModel: 'local-hash-384', embeddingDimension: 384 });
    expect(doc.chunkCount).toBeGreaterThan(0);
  });

  it('lists the application’s documents newest first', async () => {
    const res = await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}&limit=100`, { token: owner.token });
    expect(res.status).toBe(200);
    const names = res.body.map((d: { fileName: string }) => d.fileName);
    expect(names).toEqual(expect.arrayContaining(Object.values(DOCUMENTS).map((d) => d.name)));
    expect(names.indexOf('manual.xml')).toBeLessThan(names.indexOf('refunds.md'));
    expect(Number(res.headers.get('x-total-count'))).toBe(res.body.length);
  });

  it('finds the most relevant chunk first, with cosine scores in descending order', async () => {
    for (const id of Object.values(ids)) await settled(stack.client, owner.token, id);
    const res = await search('How many minutes does the Zephyr-9 drone fly?');
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ documentId: ids.drone, fileName: 'drone.txt', chunkIndex: 0, text: expect.stringContaining('42 minutes') });
    const scores = res.body.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(-1);
    expect(scores[0]).toBeLessThanOrEqual(1);
    expect(scores[0]).toBeGreaterThan(scores[scores.length - 1]);

    expect((await search('support desk opening hours')).body[0].documentId).toBe(ids.support);
    expect((await search('refund within 30 days')).body[0].documentId).toBe(ids.refunds);
    expect((await search('Nimbus-2 kettle warranty')).body[0]).toMatchObject({ documentId: ids.catalog, text: expect.stringContaining('2 years') });
    expect((await search('Orbit chair price')).body[0]).toMatchObject({ documentId: ids.prices, text: expect.stringContaining('Orbit chair') });
    expect((await search('glider battery charge')).body[0].documentId).toBe(ids.manual);
    expect(await search('drone', '&limit=2')).toMatchObject({ status: 200, body: { length: 2 } });
  });

  it('keeps only the text of HTML: scripts and styles are not indexed', async () => {
    const res = await search('scriptonlyword hidden color red', '&limit=50');
    expect(res.body.some((r: { text: string }) => r.text.includes('scriptonlyword') || r.text.includes('color:red'))).toBe(false);
    expect(res.body.find((r: { documentId: string }) => r.documentId === ids.support).text).toContain('Our support desk answers calls');
  });

  it('reads a PDF and a Word document, and search shows each hit with its page or section, in every mode', async () => {
    const pdf = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, {
      name: 'handbook.pdf', text: await aPdf(['Welcome to the handbook.', 'The glider warranty lasts three years from delivery.', 'Spare part GX-4410 fits every glider.']),
    });
    const docx = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, {
      name: 'policies.docx', text: await aDocx(wordParagraph('Policies', 'Heading1') + wordParagraph('Travel', 'Heading2') + wordParagraph('Trains are booked in second class.')),
    });
    expect([pdf.status, docx.status]).toEqual([202, 202]);
    expect(await settled(stack.client, owner.token, pdf.body.id)).toMatchObject({ status: 'ready', format: 'pdf', chunkCount: 3 });
    expect(await settled(stack.client, owner.token, docx.body.id)).toMatchObject({ status: 'ready', format: 'docx', chunkCount: 1 });

    const warranty = await search('how long is the glider warranty');
    expect(warranty.body[0]).toMatchObject({ fileName: 'handbook.pdf', page: 2, section: null, text: expect.stringContaining('three years') });
    for (const mode of ['keyword', 'hybrid', 'vector']) {
      const part = await search('GX-4410', `&mode=${mode}`);
      expect(part.status).toBe(200);
      expect(part.body[0]).toMatchObject({ fileName: 'handbook.pdf', page: 3 });
    }
    const trains = await search('trains second class', '&mode=keyword');
    expect(trains.body[0]).toMatchObject({ fileName: 'policies.docx', page: null, section: 'Policies > Travel' });
    expect((await search('x', '&mode=fuzzy')).status).toBe(400);

    // Re-indexed with other settings: searchable throughout, then with the new chunk size.
    const reindex = await stack.client.post(`/api/knowledge/${pdf.body.id}/reindex`, { chunkSize: 2000, chunkOverlap: 0 }, { token: owner.token });
    expect(reindex.status).toBe(202);
    expect((await search('GX-4410', '&mode=keyword')).body[0]).toMatchObject({ fileName: 'handbook.pdf' });
    for (let i = 0; i < 200; i++) {
      const doc = (await stack.client.get(`/api/knowledge/${pdf.body.id}`, { token: owner.token })).body;
      if (doc.reindexing === null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await stack.client.get(`/api/knowledge/${pdf.body.id}`, { token: owner.token })).body).toMatchObject({ status: 'ready', chunkSize: 2000, chunkCount: 3, reindexing: null });
    expect((await stack.client.post(`/api/knowledge/${pdf.body.id}/reindex`, { chunkSize: 5 }, { token: owner.token })).status).toBe(400);
  });

  it('chunks by the size and overlap asked for', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} talks about the chunking of long documents.`).join(' ');
    const fine = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, chunkSize: '300', chunkOverlap: '0' }, { name: 'long.txt', text });
    // Not the same bytes: the same file twice is refused (409).
    const coarse = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'long-default.txt', text: `${text} The end.` });
    expect(fine.body).toMatchObject({ chunkSize: 300, chunkOverlap: 0 });
    expect(coarse.body).toMatchObject({ chunkSize: 1000, chunkOverlap: 200 });
    const [fineDone, coarseDone] = [await settled(stack.client, owner.token, fine.body.id), await settled(stack.client, owner.token, coarse.body.id)];
    expect(fineDone.chunkCount).toBeGreaterThanOrEqual(Math.floor(text.length / 300));
    expect(coarseDone.chunkCount).toBeLessThan(fineDone.chunkCount);
  });

  it.each([
    ['an XML document with a DOCTYPE', { name: 'bomb.xml', text: '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>' }, 400, /DOCTYPE/],
    ['an empty file', { name: 'empty.txt', text: '' }, 400, /no text/],
    ['a PNG named .txt', { name: 'picture.txt', text: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]) }, 415, /UTF-8/],
    ['invalid JSON named .json', { name: 'broken.json', text: '{"products": [' }, 400, /not valid JSON/],
    ['an unsupported type', { name: 'paper.rtf', text: '{\\rtf1 hello}' }, 415, /Unsupported document type/],
    ['a PDF that is not one', { name: 'paper.pdf', text: '%PDF-1.7' }, 400, /The PDF cannot be read/],
    ['a macro-enabled Word document', { name: 'macros.docm', text: 'PK' }, 415, /Macro-enabled/],
    ['the same file twice', { name: 'again.md', text: DOCUMENTS.refunds.text }, 409, /already in the knowledge base as "refunds.md"/],
  ])('refuses %s at once', async (_what, file, status, message) => {
    const before = await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}&limit=100`, { token: owner.token });
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, file);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
    expect((await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}&limit=100`, { token: owner.token })).body).toHaveLength(before.body.length);
  });

  it.each([
    [{}, 'applicationId'],
    [{ chunkSize: 'big' }, 'chunkSize'],
    [{ chunkSize: '50' }, 'chunkSize'],
    [{ chunkSize: '400', chunkOverlap: '300' }, 'chunkOverlap'],
    [{ embeddingProvider: 'provider_b' }, 'embeddingProvider'],
    [{ embeddingProvider: 'local', embeddingModel: 'other-model' }, 'embeddingModel'],
  ])('answers 400 for fields %j', async (fields, path) => {
    const withApp = 'applicationId' === path ? fields : { applicationId: owner.app.id, ...fields };
    const res = await uploadDocument(stack.client, owner.token, withApp as Record<string, string>, { name: 'a.txt', text: 'words' });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers 402 for a provider embedder on the Free plan without an own key, like chat (SPEC 8)', async () => {
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id, embeddingProvider: 'provider_c' }, { name: 'a.txt', text: 'words' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ statusCode: 402, error: 'Payment Required', message: expect.stringMatching(/own Google Gemini key/) });
  });

  it('answers 400 for a search without a query or with a bad limit', async () => {
    expect((await search('')).status).toBe(400);
    expect((await search('x', '&limit=0')).status).toBe(400);
    expect((await search('x', '&limit=51')).status).toBe(400);
    expect((await stack.client.get(`/api/knowledge/search?query=x`, { token: owner.token })).status).toBe(400);
  });

  it("answers 404 for another user's application and documents", async () => {
    const other = await registerUser(stack.client);
    const token = other.access_token;
    expect((await uploadDocument(stack.client, token, { applicationId: owner.app.id }, { name: 'x.txt', text: 'mine now' })).status).toBe(404);
    expect((await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token })).status).toBe(404);
    expect((await search('drone', '', token)).status).toBe(404);
    expect((await stack.client.get(`/api/knowledge/${ids.drone}`, { token })).status).toBe(404);
    expect((await stack.client.delete(`/api/knowledge/${ids.drone}`, { token })).status).toBe(404);
    expect((await stack.client.get(`/api/knowledge/${ids.drone}`, { token: owner.token })).status).toBe(200);
  });

  it('gives retrieved chunks to the model as context and returns their sources with the answer', async () => {
    const user = await userWithApplication(stack.client, { name: 'Drone Help' });
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-drone-help-key' }, { token: user.token })).status).toBe(200);
    const drone = await uploadDocument(stack.client, user.token, { applicationId: user.app.id }, DOCUMENTS.drone);
    const refunds = await uploadDocument(stack.client, user.token, { applicationId: user.app.id }, DOCUMENTS.refunds);
    await settled(stack.client, user.token, drone.body.id);
    await settled(stack.client, user.token, refunds.body.id);
    const conversation = await stack.client.post('/api/conversations', { applicationId: user.app.id }, { token: user.token });
    stack.emulator!.reset();

    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'How many minutes can the Zephyr-9 drone fly?' }, { token: user.token });

    expect(answer.status).toBe(200);
    expect(answer.body.sources[0]).toEqual({ documentId: drone.body.id, chunkIndex: 0, score: expect.any(Number), fileName: 'drone.txt', excerpt: DOCUMENTS.drone.text, page: null, section: null });
    expect(answer.body.sources[0].score).toBeGreaterThan(0);
    const chat = stack.emulator!.requests.find((r) => r.provider === 'provider_a' && r.path.endsWith('/chat/completions'))!;
    const system = JSON.stringify(chat.body.messages.filter((m: { role: string }) => m.role === 'system'));
    expect(system).toContain('<knowledge-base>');
    expect(system).toContain('The Zephyr-9 drone flies for 42 minutes');
    const history = await stack.client.get(`/api/conversations/${conversation.body.id}`, { token: user.token });
    expect(history.body.messages.at(-1).sources).toEqual(answer.body.sources);
  });

  it('streams an answer whose done event carries the sources', async () => {
    const user = await userWithApplication(stack.client, { name: 'Streaming Help' });
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-streaming-key' }, { token: user.token });
    const drone = await uploadDocument(stack.client, user.token, { applicationId: user.app.id }, DOCUMENTS.drone);
    await settled(stack.client, user.token, drone.body.id);
    const conversation = await stack.client.post('/api/conversations', { applicationId: user.app.id }, { token: user.token });

    const res = await stack.client.post(`/api/conversations/${conversation.body.id}/stream`, { content: 'Zephyr-9 drone flight time?' }, { token: user.token });

    const events = res.text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice(6)));
    expect(events.at(-1)).toMatchObject({ type: 'done', sources: [{ documentId: drone.body.id, chunkIndex: 0, score: expect.any(Number) }] });
  });

  it('returns the sources, with document names and excerpts, from the public API too: whole answers, streams and history', async () => {
    const user = await userWithApplication(stack.client, { name: 'Public Drone Help' });
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-public-drone-key' }, { token: user.token });
    const drone = await uploadDocument(stack.client, user.token, { applicationId: user.app.id }, DOCUMENTS.drone);
    await settled(stack.client, user.token, drone.body.id);
    const key = (await stack.client.post('/api/api-keys', { applicationId: user.app.id }, { token: user.token })).body.key as string;
    const expected = [{ documentId: drone.body.id, chunkIndex: 0, score: expect.any(Number), fileName: 'drone.txt', excerpt: DOCUMENTS.drone.text, page: null, section: null }];

    const answer = await stack.client.post('/api/v1/chat', { message: 'How long does the Zephyr-9 drone fly?', applicationId: user.app.id }, { headers: { 'X-API-Key': key } });
    expect(answer.status).toBe(200);
    expect(answer.body.sources).toEqual(expected);
    const streamed = await stack.client.post('/api/v1/chat/stream', { message: 'Zephyr-9 drone camera?', applicationId: user.app.id, conversationId: answer.body.conversationId }, { headers: { 'X-API-Key': key } });
    const events = streamed.text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice(6)));
    expect(events.at(-1)).toMatchObject({ type: 'done', sources: expected });
    const history = await stack.client.get(`/api/v1/conversations/${answer.body.conversationId}`, { headers: { 'X-API-Key': key } });
    expect(history.body.messages.map((m: { sources?: unknown }) => m.sources)).toEqual([undefined, expected, undefined, expected]);
  });

  it('adds no context to conversations of an application without documents', async () => {
    const user = await userWithApplication(stack.client, { name: 'Empty' });
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-empty-app-key' }, { token: user.token });
    const conversation = await stack.client.post('/api/conversations', { applicationId: user.app.id }, { token: user.token });
    stack.emulator!.reset();
    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'How long does the drone fly?' }, { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body.sources).toBeUndefined();
    expect(JSON.stringify(stack.emulator!.requests.map((r) => r.body))).not.toContain('knowledge-base');
  });

  it("embeds with a provider on the owner's own key and records its model and dimension", async () => {
    const user = await userWithApplication(stack.client, { name: 'Provider Embeddings' });
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-embedding-key' }, { token: user.token });
    stack.emulator!.reset();
    const res = await uploadDocument(stack.client, user.token, { applicationId: user.app.id, embeddingProvider: 'provider_a' }, DOCUMENTS.drone);
    expect(res.status).toBe(202);
    const done = await settled(stack.client, user.token, res.body.id);
    expect(done).toMatchObject({ status: 'ready', embeddingProvider: 'provider_a', embeddingModel: 'text-embedding-3-small', embeddingDimension: 1536 });
    const embeddings = stack.emulator!.requests.filter((r) => r.path.endsWith('/embeddings'));
    expect(embeddings.length).toBeGreaterThan(0);
    expect(embeddings.every((r) => r.apiKey === 'sk-own-embedding-key')).toBe(true);

    const found = await search('Zephyr-9 drone flight minutes', '', user.token, user.app.id);
    expect(found.body[0]).toMatchObject({ documentId: res.body.id, text: expect.stringContaining('42 minutes') });
  });

  it('marks a document that cannot be embedded as error, with the reason', async () => {
    const user = await userWithApplication(stack.client, { name: 'Broken Embeddings' });
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-fail500-embedding-key' }, { token: user.token });
    await stack.client.put('/api/provider-keys/provider_d', { apiKey: 'hf_rejected_embedding_key' }, { token: user.token });

    const flaky = await uploadDocument(stack.client, user.token, { applicationId: user.app.id, embeddingProvider: 'provider_a' }, DOCUMENTS.drone);
    const refused = await uploadDocument(stack.client, user.token, { applicationId: user.app.id, embeddingProvider: 'provider_d' }, DOCUMENTS.refunds);

    // A refused key will be refused again: no retries.
    expect(await settled(stack.client, user.token, refused.body.id)).toMatchObject({ status: 'error', error: expect.stringMatching(/^Embedding failed: .*provider_d/), chunkCount: 0 });
    // A failing provider is retried with backoff, then given up on.
    expect(await settled(stack.client, user.token, flaky.body.id)).toMatchObject({ status: 'error', error: expect.stringMatching(/after several attempts: .*provider_a/), chunkCount: 0 });
    expect((await search('drone', '', user.token, user.app.id)).body).toEqual([]);
  });

  it('deletes a document with its chunks and its stored source', async () => {
    const res = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'temporary.md', text: 'Quasar widgets glow in the dark.' });
    await settled(stack.client, owner.token, res.body.id);
    const sources = () => readdirSync(join(stack.config.dataDir, 'uploads', 'knowledge'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    const before = sources();
    expect((await search('quasar widgets glow')).body[0].documentId).toBe(res.body.id);

    expect((await stack.client.delete(`/api/knowledge/${res.body.id}`, { token: owner.token })).status).toBe(204);

    expect((await stack.client.get(`/api/knowledge/${res.body.id}`, { token: owner.token })).status).toBe(404);
    expect((await search('quasar widgets glow')).body.map((r: { documentId: string }) => r.documentId)).not.toContain(res.body.id);
    expect(sources()).toBe(before - 1);
  });
});
