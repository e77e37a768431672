import { randomUUID } from 'node:crypto';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { TypeOrmConversationRepository } from '../../../adapters/persistence/conversations/type-orm-conversation.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { Database } from '../../../adapters/persistence/data-source';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

/**
 * The turn writes (`beginTurn`, `addMessage`) go by group commit: concurrent calls share statements.
 * Whatever the grouping, each call must get what it would get alone.
 */
describe.each(DATABASE_KINDS)('conversation repository turn writes (%s)', (kind) => {
  let db: Database;
  let repo: TypeOrmConversationRepository;
  let applicationId: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    const user = await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
    applicationId = (await new TypeOrmApplicationRepository(db.dataSource).create({ ownerId: user.id, name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] })).id;
    repo = new TypeOrmConversationRepository(db.dataSource);
  });
  afterAll(() => db.close());

  const aConversation = async () => (await repo.create({ applicationId, title: 'T', source: 'dashboard' })).id;

  it('begins a turn: the history before the stored message, oldest first, failed answers left out', async () => {
    const id = await aConversation();
    expect((await repo.beginTurn(id, 'one', 100, 10_000))!.history).toEqual([]);
    await repo.addMessage({ conversationId: id, role: 'assistant', content: 'reply one', status: 'complete' });
    await repo.addMessage({ conversationId: id, role: 'assistant', content: '', status: 'failed', error: 'boom' });
    const begun = await repo.beginTurn(id, 'two', 100, 10_000);
    expect(begun!.conversation.id).toBe(id);
    expect(begun!.history).toEqual([{ role: 'user', content: 'one' }, { role: 'assistant', content: 'reply one' }]);
    expect((await repo.messages(id)).map((m) => m.content)).toEqual(['one', 'reply one', '', 'two']);
    // The count and character limits keep the latest messages.
    expect((await repo.beginTurn(id, 'three', 2, 10_000))!.history.map((t) => t.content)).toEqual(['reply one', 'two']);
    expect((await repo.beginTurn(id, 'four', 100, 5))!.history.map((t) => t.content)).toEqual(['three']);
  });

  it('answers null for an unknown conversation and stores nothing in an archived one', async () => {
    expect(await repo.beginTurn(randomUUID(), 'x', 100, 1000)).toBeNull();
    const id = await aConversation();
    await repo.addMessage({ conversationId: id, role: 'user', content: 'before', status: 'complete' });
    await repo.archive(id);
    const begun = await repo.beginTurn(id, 'after', 100, 1000);
    expect(begun).toMatchObject({ conversation: { id, status: 'archived' }, history: [] });
    expect((await repo.messages(id)).map((m) => m.content)).toEqual(['before']);
  });

  it('concurrent turns each get their own conversation, history and stored message', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, aConversation));
    await Promise.all(ids.map((id, i) => repo.addMessage({ conversationId: id, role: 'assistant', content: `greeting ${i}`, status: 'complete' })));
    const unknown = randomUUID();
    const archived = await aConversation();
    await repo.archive(archived);

    const begun = await Promise.all([
      ...ids.map((id, i) => repo.beginTurn(id, `question ${i}`, 100, 10_000)),
      repo.beginTurn(unknown, 'lost', 100, 10_000),
      repo.beginTurn(archived, 'refused', 100, 10_000),
    ]);
    ids.forEach((id, i) => {
      expect(begun[i]!.conversation.id).toBe(id);
      expect(begun[i]!.history).toEqual([{ role: 'assistant', content: `greeting ${i}` }]);
    });
    expect(begun[12]).toBeNull();
    expect(begun[13]).toMatchObject({ conversation: { id: archived, status: 'archived' }, history: [] });
    for (const [i, id] of ids.entries()) {
      const stored = await repo.messages(id);
      expect(stored.map((m) => m.content)).toEqual([`greeting ${i}`, `question ${i}`]);
      // Each turn is told the id of the message it stored, from the same statement.
      expect(begun[i]!.messageId).toBe(stored[1]!.id);
    }
    expect(begun[13]!.messageId).toBeUndefined();
    expect(await repo.messages(archived)).toEqual([]);
  });

  it('two concurrent turns of one conversation: the second sees the first', async () => {
    const id = await aConversation();
    const other = await aConversation();
    // The first call runs alone; the two of one conversation arrive while it runs, so they share a batch.
    const [, first, second] = await Promise.all([
      repo.beginTurn(other, 'elsewhere', 100, 10_000),
      repo.beginTurn(id, 'first', 100, 10_000),
      repo.beginTurn(id, 'second', 100, 10_000),
    ]);
    expect(first!.history).toEqual([]);
    expect(second!.history).toEqual([{ role: 'user', content: 'first' }]);
    const stored = await repo.messages(id);
    expect(stored.map((m) => m.content)).toEqual(['first', 'second']);
    expect([first!.messageId, second!.messageId]).toEqual(stored.map((m) => m.id));
  });

  it('concurrent answers are stored whole, each returned to its own caller, in call order within a conversation', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, aConversation));
    const version = randomUUID();
    const answerOf = (conversationId: string, i: number) => ({
      conversationId,
      role: 'assistant' as const,
      content: `answer ${i}`,
      status: 'complete' as const,
      provider: 'provider_a',
      model: 'gpt-4o-mini',
      usage: { promptTokens: i, completionTokens: 2 * i, totalTokens: 3 * i },
      latencyMs: 10 + i,
      configVersionId: version,
      sources: [{ documentId: `d${i}`, chunkIndex: i, score: 0.5 }],
    });
    const written = await Promise.all(
      ids.flatMap((id, i) => [
        repo.addMessage(answerOf(id, i)),
        repo.addMessage({ conversationId: id, role: 'assistant', content: '', status: 'failed', error: `failure ${i}` }),
      ]),
    );
    ids.forEach((id, i) => {
      const [answer, failed] = [written[2 * i]!, written[2 * i + 1]!];
      expect(answer).toMatchObject({ ...answerOf(id, i), error: null });
      expect(failed).toMatchObject({ conversationId: id, content: '', status: 'failed', error: `failure ${i}`, usage: null, sources: null });
    });
    for (const [i, id] of ids.entries()) {
      expect((await repo.messages(id)).map((m) => [m.id, m.status])).toEqual([[written[2 * i]!.id, 'complete'], [written[2 * i + 1]!.id, 'failed']]);
    }
  });

  it('concurrent creations each get their own conversation; an unknown application fails alone', async () => {
    const titles = Array.from({ length: 8 }, (_, i) => `Conversation ${i}`);
    const results = await Promise.allSettled([
      ...titles.map((title, i) => repo.create({ applicationId, title, source: i % 2 ? 'api' : 'widget' })),
      repo.create({ applicationId: randomUUID(), title: 'Nowhere', source: 'api' }),
    ]);
    expect(results.at(-1)).toMatchObject({ status: 'rejected', reason: { name: 'NotFoundError' } });
    const created = results.slice(0, -1).map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof repo.create>>>).value);
    expect(created.map((c) => [c.title, c.source, c.applicationId, c.status])).toEqual(titles.map((t, i) => [t, i % 2 ? 'api' : 'widget', applicationId, 'active']));
    expect(new Set(created.map((c) => c.id)).size).toBe(titles.length);
    for (const c of created) expect(await repo.findById(c.id)).toEqual(c);
    const listed = await repo.listByApplication(applicationId, 0, 1000);
    expect(listed.items.filter((c) => c.title === 'Nowhere')).toEqual([]);
  });

  it('stores a conversation under the id its caller chose, once: the id asked for again is a conflict', async () => {
    const id = randomUUID();
    // The first call runs alone; the two asking for one id arrive while it runs, so they share a batch.
    const [first, second] = await Promise.allSettled([
      repo.create({ applicationId, title: 'Warm-up', source: 'api' }),
      repo.create({ id, applicationId, title: 'Mine', source: 'widget' }),
      repo.create({ id, applicationId, title: 'Also mine', source: 'widget' }),
    ]).then((r) => r.slice(1));
    expect(first).toMatchObject({ status: 'fulfilled', value: { id, title: 'Mine' } });
    expect(second).toMatchObject({ status: 'rejected', reason: { name: 'ConflictError' } });
    await expect(repo.create({ id, applicationId, title: 'Later', source: 'api' })).rejects.toMatchObject({ name: 'ConflictError' });
    expect((await repo.findById(id))!.title).toBe('Mine');
  });

  it('opens a conversation with its first message in one step, batched with other creations', async () => {
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const results = await Promise.allSettled([
      repo.create({ applicationId, title: 'Warm-up', source: 'api' }),
      ...ids.map((id, i) => repo.beginFirstTurn({ id, applicationId, title: `Opened ${i}`, source: 'widget' }, `first words ${i}`)),
      repo.create({ applicationId, title: 'Plain', source: 'api' }),
      repo.beginFirstTurn({ id: randomUUID(), applicationId: randomUUID(), title: 'Nowhere', source: 'api' }, 'lost'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', ...ids.map(() => 'fulfilled'), 'fulfilled', 'rejected']);
    expect(results.at(-1)).toMatchObject({ reason: { name: 'NotFoundError' } });
    for (const [i, id] of ids.entries()) {
      const begun = (results[i + 1] as PromiseFulfilledResult<Awaited<ReturnType<typeof repo.beginFirstTurn>>>).value;
      expect(begun).toMatchObject({ conversation: { id, title: `Opened ${i}`, applicationId }, history: [] });
      const stored = await repo.messages(id);
      expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([['user', `first words ${i}`, 'complete']]);
      expect(begun.messageId).toBe(stored[0]!.id);
      // The next turn sees the first message, as the count stored with it says.
      expect((await repo.beginTurn(id, 'second', 100, 10_000))!.history).toEqual([{ role: 'user', content: `first words ${i}` }]);
    }
    const plain = (results.at(-2) as PromiseFulfilledResult<Awaited<ReturnType<typeof repo.create>>>).value;
    expect(await repo.messages(plain.id)).toEqual([]);
    const counted = await db.dataSource.query(
      `SELECT c.message_count = (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS exact FROM conversations c WHERE c.id = ANY($1::uuid[])`,
      [[...ids, plain.id]],
    );
    expect(counted.map((r: { exact: boolean }) => r.exact)).toEqual(ids.map(() => true).concat(true));
  });

  it('opens nothing under a taken id: the first asker of an id gets it with its message, the others a conflict', async () => {
    const id = randomUUID();
    const [, first, second] = await Promise.allSettled([
      repo.create({ applicationId, title: 'Warm-up', source: 'api' }),
      repo.beginFirstTurn({ id, applicationId, title: 'Mine', source: 'widget' }, 'mine'),
      repo.beginFirstTurn({ id, applicationId, title: 'Also mine', source: 'widget' }, 'also mine'),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { conversation: { id, title: 'Mine' } } });
    expect(second).toMatchObject({ status: 'rejected', reason: { name: 'ConflictError' } });
    await expect(repo.beginFirstTurn({ id, applicationId, title: 'Later', source: 'api' }, 'later')).rejects.toMatchObject({ name: 'ConflictError' });
    expect((await repo.messages(id)).map((m) => m.content)).toEqual(['mine']);
    // Another repository (another process) knows nothing of it, and reads the same history.
    expect((await new TypeOrmConversationRepository(db.dataSource).beginTurn(id, 'next', 100, 10_000))!.history).toEqual([{ role: 'user', content: 'mine' }]);
  });

  it('a write that fails fails alone: the others of its batch are stored', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, aConversation));
    const results = await Promise.allSettled([
      ...ids.map((id) => repo.addMessage({ conversationId: id, role: 'assistant', content: 'kept', status: 'complete' })),
      repo.addMessage({ conversationId: randomUUID(), role: 'assistant', content: 'orphan', status: 'complete' }),
      ...ids.map((id) => repo.addMessage({ conversationId: id, role: 'assistant', content: 'kept too', status: 'complete' })),
    ]);
    expect(results.map((r) => r.status)).toEqual([...ids.map(() => 'fulfilled'), 'rejected', ...ids.map(() => 'fulfilled')]);
    for (const id of ids) expect((await repo.messages(id)).map((m) => m.content)).toEqual(['kept', 'kept too']);
  });

  describe('history cache', () => {
    const history = async (r: TypeOrmConversationRepository, id: string, content: string) => (await r.beginTurn(id, content, 100, 10_000))!.history.map((t) => t.content);
    const counts = (id: string) =>
      db.dataSource.query(`SELECT message_count AS kept, (SELECT count(*)::int FROM messages WHERE conversation_id = $1) AS actual FROM conversations WHERE id = $1`, [id]);

    it('never misses what another process wrote in between, and keeps each conversation\'s count exact', async () => {
      const other = new TypeOrmConversationRepository(db.dataSource);
      const id = await aConversation();
      expect(await history(repo, id, 'one')).toEqual([]);
      await repo.addMessage({ conversationId: id, role: 'assistant', content: 'answer one', status: 'complete' });
      await other.addMessage({ conversationId: id, role: 'assistant', content: 'from elsewhere', status: 'complete' });
      expect(await history(repo, id, 'two')).toEqual(['one', 'answer one', 'from elsewhere']);
      expect(await history(other, id, 'three')).toEqual(['one', 'answer one', 'from elsewhere', 'two']);
      await Promise.all([
        repo.addMessage({ conversationId: id, role: 'assistant', content: 'answer three', status: 'complete' }),
        other.addMessage({ conversationId: id, role: 'assistant', content: '', status: 'failed', error: 'boom' }),
      ]);
      const expected = ['one', 'answer one', 'from elsewhere', 'two', 'three', 'answer three'];
      expect(await history(repo, id, 'four')).toEqual(expected);
      expect(await history(other, id, 'five')).toEqual([...expected, 'four']);
      expect(await counts(id)).toEqual([{ kept: 9, actual: 9 }]);
    });

    it('answers from the cache while the conversation is where the cache left it', async () => {
      const id = await aConversation();
      await repo.beginTurn(id, 'one', 100, 10_000);
      await repo.addMessage({ conversationId: id, role: 'assistant', content: 'answer one', status: 'complete' });
      // A row slipped in behind the count's back is not read while the count says nothing changed:
      // the history came from memory. A repository without the cache reads it.
      await db.dataSource.query(`INSERT INTO messages (conversation_id, role, content) VALUES ($1, 'user', 'unseen')`, [id]);
      expect(await history(repo, id, 'two')).toEqual(['one', 'answer one']);
      const uncached = new TypeOrmConversationRepository(db.dataSource, 0);
      expect(await history(uncached, id, 'three')).toEqual(['one', 'answer one', 'unseen', 'two']);
    });

    it('gives the history a read gives, through a long conversation and changing limits', async () => {
      // The same turns in two conversations, one through the cache and one read every time.
      const uncached = new TypeOrmConversationRepository(db.dataSource, 0);
      const [viaCache, viaReads] = [await aConversation(), await aConversation()];
      for (let i = 0; i < 60; i++) {
        const limit = 1 + (i % 7) * 20;
        const maxChars = 5 + (i % 5) * 200;
        const [cached, read] = [
          await repo.beginTurn(viaCache, `question ${i}`, limit, maxChars),
          await uncached.beginTurn(viaReads, `question ${i}`, limit, maxChars),
        ];
        expect(cached!.history).toEqual(read!.history);
        if (i > 0) expect(cached!.history.length).toBeGreaterThan(0);
        const answer = { role: 'assistant' as const, content: `answer ${i} `.repeat(1 + (i % 4)), status: 'complete' as const };
        if (i % 3 === 0) {
          const failed = { role: 'assistant' as const, content: '', status: 'failed' as const, error: 'e' };
          await Promise.all([repo.addMessage({ ...failed, conversationId: viaCache }), uncached.addMessage({ ...failed, conversationId: viaReads })]);
        }
        await Promise.all([repo.addMessage({ ...answer, conversationId: viaCache }), uncached.addMessage({ ...answer, conversationId: viaReads })]);
      }
    });

    it('does not take a conversation made again under the same id for the old one', async () => {
      const users = new TypeOrmUserRepository(db.dataSource);
      const apps = new TypeOrmApplicationRepository(db.dataSource);
      const owner = await users.create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
      const first = await apps.create({ ownerId: owner.id, name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] });
      const id = randomUUID();
      await repo.create({ id, applicationId: first.id, title: 'T', source: 'api' });
      await repo.beginTurn(id, 'old question', 100, 10_000);
      await apps.delete(first.id); // its conversations go with it
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await apps.create({ ownerId: owner.id, name: 'B', description: '', slug: `b-${randomUUID()}`, allowedOrigins: [] });
      const other = new TypeOrmConversationRepository(db.dataSource);
      await other.create({ id, applicationId: second.id, title: 'T', source: 'api' });
      await other.addMessage({ conversationId: id, role: 'user', content: 'new question', status: 'complete' });
      // Same id, same message count as the cached entry: only the creation time tells them apart.
      expect(await history(repo, id, 'next')).toEqual(['new question']);
    });
  });
});
