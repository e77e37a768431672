import { DATABASE_KINDS } from '../../../support/test-database';
import { startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { sendForm } from '../uploads/send-form';
import { settled, uploadDocument } from './knowledge-documents';

const OLD = '# Returns policy\n\nCustomers may return any purchase within 45 days for a full refund of the returns.';
const NEW = '# Returns policy\n\nCustomers may return any purchase within 60 days for a full refund of the returns.';
const OTHER = 'The warehouse in Lyon ships parcels every weekday morning before ten o clock.';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Replace with versions, chunk fixes, retrieval settings and re-indexing, on the embedded PGlite and on PostgreSQL.
describe.each(DATABASE_KINDS)('core API: keeping knowledge current (%s)', (database) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;
  let docId: string;

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, rerank: true, database });
    owner = await userWithApplication(stack.client, { name: 'Returns Desk' });
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-returns-desk-key' }, { token: owner.token })).status).toBe(200);
    const first = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'returns-policy.md', text: OLD });
    docId = first.body.id;
    const other = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'warehouse.txt', text: OTHER });
    expect(await settled(stack.client, owner.token, docId)).toMatchObject({ status: 'ready', version: 1 });
    await settled(stack.client, owner.token, other.body.id);
  });
  afterAll(() => stack.close());

  const search = (query: string, extra = '') =>
    stack.client.get(`/api/knowledge/search?applicationId=${owner.app.id}&query=${encodeURIComponent(query)}&limit=10${extra}`, { token: owner.token });
  const versionSeen = async (): Promise<string[]> => {
    const res = await search('how many days to return a purchase');
    expect(res.status).toBe(200);
    return res.body.filter((h: { documentId: string }) => h.documentId === docId).map((h: { text: string }) => (h.text.includes('45 days') ? 'old' : h.text.includes('60 days') ? 'new' : 'other'));
  };
  const untilSwitched = async (id: string) => {
    for (let i = 0; i < 400; i++) {
      const doc = (await stack.client.get(`/api/knowledge/${id}`, { token: owner.token })).body;
      if (doc.reindexing === null) return doc;
      await pause(25);
    }
    throw new Error('the new version never went live');
  };

  it('replaces a document uploaded again by its name: searches see exactly one version throughout, the answer cites the new text, rollback restores the old', async () => {
    // The same bytes again: still a 409 naming the document.
    const same = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'returns-policy.md', text: OLD });
    expect(same.status).toBe(409);
    expect(same.text).toContain(docId);

    // Searches run back to back while the new version is built and switched.
    const seen: string[][] = [];
    let searching = true;
    const loop = (async () => {
      while (searching) seen.push(await versionSeen());
    })();
    const replaced = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'returns-policy.md', text: NEW });
    expect(replaced.status).toBe(202);
    expect(replaced.body).toMatchObject({ id: docId, version: 1, reindexing: { version: 2 } });
    const live = await untilSwitched(docId);
    for (let i = 0; i < 3; i++) seen.push(await versionSeen());
    searching = false;
    await loop;
    expect(live).toMatchObject({ id: docId, version: 2, status: 'ready', fileName: 'returns-policy.md' });
    for (const kinds of seen) expect(kinds).toHaveLength(1); // never both, never neither
    const order = seen.map((k) => k[0]);
    expect(order.at(-1)).toBe('new');
    expect(order.slice(order.indexOf('new'))).not.toContain('old'); // old until the swap, new after

    const listed = await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token: owner.token });
    expect(listed.body.filter((d: { fileName: string }) => d.fileName === 'returns-policy.md')).toHaveLength(1);
    const versions = await stack.client.get(`/api/knowledge/${docId}/versions`, { token: owner.token });
    expect(versions.body).toEqual([
      expect.objectContaining({ version: 2, state: 'current', size: Buffer.byteLength(NEW), createdBy: owner.user.id, contentHash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
      expect.objectContaining({ version: 1, state: 'previous', size: Buffer.byteLength(OLD), createdBy: owner.user.id }),
    ]);

    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Within how many days may customers return a purchase?' }, { token: owner.token });
    expect(answer.status).toBe(200);
    const cited = answer.body.sources.filter((s: { documentId: string }) => s.documentId === docId);
    expect(cited).toHaveLength(1);
    expect(cited[0].excerpt).toContain('60 days');

    const restored = await stack.client.post(`/api/knowledge/${docId}/versions/1/restore`, {}, { token: owner.token });
    expect(restored.status).toBe(202);
    expect(await untilSwitched(docId)).toMatchObject({ version: 3 });
    expect(await versionSeen()).toEqual(['old']);
    const after = (await stack.client.get(`/api/knowledge/${docId}/versions`, { token: owner.token })).body;
    expect(after[0]).toMatchObject({ version: 3, restoredFrom: 1, state: 'current', contentHash: after[2].contentHash });
    expect((await stack.client.post(`/api/knowledge/${docId}/versions/3/restore`, {}, { token: owner.token })).status).toBe(409);
    expect((await stack.client.post(`/api/knowledge/${docId}/versions/99/restore`, {}, { token: owner.token })).status).toBe(404);

    // PUT on the document: the same, by id.
    const put = await sendForm(stack.client.baseUrl, `/api/knowledge/${docId}`, { token: owner.token, method: 'PUT', fields: {}, file: { name: 'returns-policy.md', bytes: NEW } });
    expect(put.status).toBe(202);
    expect(await untilSwitched(docId)).toMatchObject({ version: 4 });
    expect(await versionSeen()).toEqual(['new']);
  });

  it('lists, edits, disables and adds chunks, and search and chat follow', async () => {
    const chunks = await stack.client.get(`/api/knowledge/${docId}/chunks`, { token: owner.token });
    expect(chunks.status).toBe(200);
    expect(chunks.body[0]).toMatchObject({ chunkIndex: 0, enabled: true, section: 'Returns policy', page: null, content: expect.stringContaining('60 days') });

    const edited = await stack.client.patch(`/api/knowledge/${docId}/chunks/0`, { content: 'Customers may return any purchase within 90 days, receipts required.' }, { token: owner.token });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ chunkIndex: 0, enabled: true, section: 'Returns policy', content: expect.stringContaining('90 days') });
    const hit = (await search('return within 90 days receipts')).body.find((h: { documentId: string }) => h.documentId === docId);
    expect(hit.text).toContain('90 days');

    const added = await stack.client.post(`/api/knowledge/${docId}/chunks`, { content: 'Gift cards can never be returned or exchanged.', section: 'Exceptions' }, { token: owner.token });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ chunkIndex: 1, enabled: true, section: 'Exceptions' });
    expect((await search('gift cards returned', '&mode=keyword')).body[0]).toMatchObject({ documentId: docId, chunkIndex: 1 });

    expect((await stack.client.patch(`/api/knowledge/${docId}/chunks/1`, { enabled: false }, { token: owner.token })).body).toMatchObject({ enabled: false });
    for (const mode of ['keyword', 'vector', 'hybrid']) {
      const res = await search('gift cards returned exchanged', `&mode=${mode}`);
      expect(res.body.some((h: { documentId: string; chunkIndex: number }) => h.documentId === docId && h.chunkIndex === 1)).toBe(false);
    }
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Can gift cards be returned or exchanged?' }, { token: owner.token });
    expect(answer.body.sources.some((s: { chunkIndex: number; documentId: string }) => s.documentId === docId && s.chunkIndex === 1)).toBe(false);
    const listed = (await stack.client.get(`/api/knowledge/${docId}/chunks`, { token: owner.token })).body;
    expect(listed.map((c: { chunkIndex: number; enabled: boolean }) => [c.chunkIndex, c.enabled])).toEqual([[0, true], [1, false]]);
    expect((await stack.client.patch(`/api/knowledge/${docId}/chunks/1`, { enabled: true }, { token: owner.token })).body).toMatchObject({ enabled: true });
    expect((await search('gift cards returned', '&mode=keyword')).body[0]).toMatchObject({ documentId: docId, chunkIndex: 1 });

    expect((await stack.client.patch(`/api/knowledge/${docId}/chunks/7`, { enabled: false }, { token: owner.token })).status).toBe(404);
    expect((await stack.client.patch(`/api/knowledge/${docId}/chunks/0`, {}, { token: owner.token })).status).toBe(400);
    expect((await stack.client.patch(`/api/knowledge/${docId}/chunks/0`, { content: '' }, { token: owner.token })).status).toBe(400);
  });

  it('previews how a file would be chunked, storing nothing', async () => {
    const text = Array.from({ length: 40 }, (_, i) => `Line ${i} of a long guide about shipping parcels abroad.`).join(' ');
    const res = await sendForm(stack.client.baseUrl, '/api/knowledge/preview', { token: owner.token, fields: { chunkSize: '300', chunkOverlap: '0' }, file: { name: 'guide.txt', bytes: text } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ format: 'txt', chunkSize: 300, chunkOverlap: 0 });
    expect(res.body.total).toBeGreaterThanOrEqual(Math.floor(text.length / 300));
    expect(res.body.chunks[0]).toMatchObject({ chunkIndex: 0, content: expect.stringContaining('Line 0') });
    const bad = await sendForm(stack.client.baseUrl, '/api/knowledge/preview', { token: owner.token, fields: { chunkSize: '5' }, file: { name: 'guide.txt', bytes: text } });
    expect(bad.status).toBe(400);
  });

  it('applies the retrieval settings: top-K, a score threshold in the prompt and the sources, the reranker', async () => {
    const defaults = await stack.client.get(`/api/knowledge/settings/${owner.app.id}`, { token: owner.token });
    expect(defaults.body).toMatchObject({ mode: null, topK: 8, scoreThreshold: null, rerank: false, effectiveMode: 'hybrid', rerankerAvailable: true });
    expect((await stack.client.put(`/api/knowledge/settings/${owner.app.id}`, { topK: 0 }, { token: owner.token })).status).toBe(400);
    expect((await stack.client.put(`/api/knowledge/settings/${owner.app.id}`, { scoreThreshold: 2 }, { token: owner.token })).status).toBe(400);

    const saved = await stack.client.put(`/api/knowledge/settings/${owner.app.id}`, { topK: 1, scoreThreshold: 0.3, mode: 'vector' }, { token: owner.token });
    expect(saved.body).toMatchObject({ topK: 1, scoreThreshold: 0.3, mode: 'vector', effectiveMode: 'vector' });
    const tester = await search('gift cards returned', '&asChat=true');
    expect(tester.body.length).toBeLessThanOrEqual(1);
    for (const h of tester.body) expect(h.score).toBeGreaterThanOrEqual(0.3);

    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    stack.emulator!.reset();
    const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'parcels weekday morning warehouse gift cards returns' }, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.sources?.length ?? 0).toBeLessThanOrEqual(1);
    for (const s of answer.body.sources ?? []) expect(s.score).toBeGreaterThanOrEqual(0.3);

    // A threshold nothing reaches: no source, and no knowledge in the prompt.
    await stack.client.put(`/api/knowledge/settings/${owner.app.id}`, { scoreThreshold: 0.99, topK: 5 }, { token: owner.token });
    stack.emulator!.reset();
    const none = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Tell me about parcels.' }, { token: owner.token });
    expect(none.body.sources ?? []).toEqual([]);
    const chat = stack.emulator!.requests.find((r) => r.provider === 'provider_a' && r.path.endsWith('/chat/completions'))!;
    expect(JSON.stringify(chat.body.messages)).not.toContain('<knowledge-base>');

    // The reranker orders the candidates (the emulator scores by shared words).
    await stack.client.put(`/api/knowledge/settings/${owner.app.id}`, { scoreThreshold: null, topK: 2, rerank: true, mode: 'hybrid' }, { token: owner.token });
    stack.emulator!.reset();
    const reranked = await search('warehouse Lyon parcels', '&asChat=true');
    expect(reranked.status).toBe(200);
    expect(reranked.body[0].text).toContain('warehouse in Lyon');
    expect(stack.emulator!.requests.some((r) => r.path.endsWith('/rerank'))).toBe(true);
  });

  it('re-indexes the whole application with progress while search keeps answering', async () => {
    const res = await stack.client.post('/api/knowledge/reindex', { applicationId: owner.app.id, chunkSize: 500, chunkOverlap: 50 }, { token: owner.token });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ started: 2, skipped: 0 });
    for (let i = 0; i < 400; i++) {
      expect((await search('warehouse parcels', '&mode=keyword')).body[0]?.text).toContain('warehouse');
      const docs = (await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token: owner.token })).body;
      for (const d of docs) if (d.reindexing) expect(d.reindexing.progress).toBeGreaterThanOrEqual(0);
      if (docs.every((d: { reindexing: unknown }) => d.reindexing === null)) break;
      await pause(25);
    }
    const docs = (await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token: owner.token })).body;
    for (const d of docs) expect(d).toMatchObject({ chunkSize: 500, chunkOverlap: 50, reindexing: null });
  });

  it('answers 404 for another user’s document, its versions and chunks, and their application’s settings', async () => {
    const stranger = await userWithApplication(stack.client, { name: 'Elsewhere' });
    const t = { token: stranger.token };
    expect((await stack.client.get(`/api/knowledge/${docId}/versions`, t)).status).toBe(404);
    expect((await stack.client.get(`/api/knowledge/${docId}/chunks`, t)).status).toBe(404);
    expect((await stack.client.patch(`/api/knowledge/${docId}/chunks/0`, { enabled: false }, t)).status).toBe(404);
    expect((await stack.client.post(`/api/knowledge/${docId}/chunks`, { content: 'mine' }, t)).status).toBe(404);
    expect((await stack.client.post(`/api/knowledge/${docId}/versions/1/restore`, {}, t)).status).toBe(404);
    expect((await sendForm(stack.client.baseUrl, `/api/knowledge/${docId}`, { token: stranger.token, method: 'PUT', fields: {}, file: { name: 'x.md', bytes: 'mine now' } })).status).toBe(404);
    expect((await stack.client.get(`/api/knowledge/settings/${owner.app.id}`, t)).status).toBe(404);
    expect((await stack.client.put(`/api/knowledge/settings/${owner.app.id}`, { topK: 3 }, t)).status).toBe(404);
    expect((await stack.client.post('/api/knowledge/reindex', { applicationId: owner.app.id }, t)).status).toBe(404);
  });
});
