import { randomUUID } from 'node:crypto';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { TypeOrmConversationRepository } from '../../../adapters/persistence/conversations/type-orm-conversation.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { Database } from '../../../adapters/persistence/data-source';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface OutboxRow {
  seq: string;
  event_id: string;
  type: string;
  owner_id: string;
  application_id: string;
  data: Record<string, unknown>;
}

/**
 * A chat turn's events (EVENTS.md) are written by the statements that store its messages: the user's
 * message with `message.received` (and `conversation.started` for a first message), the answer with
 * `message.completed`. There is no moment where the messages are stored and their events not yet.
 */
describe.each(DATABASE_KINDS)('a chat turn writes its events with its messages (%s)', (kind) => {
  let db: Database;
  let repo: TypeOrmConversationRepository;
  let applicationId: string;
  let ownerId: string;
  let wakes = 0;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    const user = await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
    ownerId = user.id;
    applicationId = (await new TypeOrmApplicationRepository(db.dataSource).create({ ownerId, name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] })).id;
    repo = new TypeOrmConversationRepository(db.dataSource, undefined, () => void wakes++);
  });
  afterAll(() => db.close());

  const eventsOf = async (conversationId: string): Promise<OutboxRow[]> =>
    (await db.dataSource.query(`SELECT seq, event_id, type, owner_id, application_id, data FROM event_outbox WHERE data->>'conversationId' = $1 ORDER BY seq`, [conversationId])).map(
      (r: OutboxRow) => ({ ...r, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data }),
    );
  const announce = { ownerId: '', source: 'api' as const };

  it('a first message: conversation.started then message.received naming the stored message, in the creating statement', async () => {
    const id = randomUUID();
    const before = wakes;
    const begun = await repo.beginFirstTurn({ id, applicationId, title: 'T', source: 'api' }, 'hello', { ...announce, ownerId });
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['conversation.started', 'message.received']);
    expect(events[0]).toMatchObject({ owner_id: ownerId, application_id: applicationId, data: { applicationId, conversationId: id, source: 'api' } });
    expect(events[1]!.data).toEqual({ applicationId, conversationId: id, messageId: begun.messageId, source: 'api' });
    expect(events.every((e) => /^evt_[0-9a-f]{32}$/.test(e.event_id))).toBe(true);
    expect(wakes).toBeGreaterThan(before);
  });

  it('a later turn: message.received with the user message, message.completed with the answer; a failed answer announces nothing', async () => {
    const id = (await repo.create({ applicationId, title: 'T', source: 'dashboard' })).id;
    const begun = await repo.beginTurn(id, 'question', 100, 10_000, { ownerId, source: 'dashboard' });
    const answer = await repo.addMessage({
      conversationId: id, role: 'assistant', content: 'answer', status: 'complete', provider: 'provider_a', model: 'gpt-4o-mini',
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 }, latencyMs: 12, announce: { ownerId, source: 'dashboard' },
    });
    await repo.addMessage({ conversationId: id, role: 'assistant', content: '', status: 'failed', error: 'boom', announce: { ownerId, source: 'dashboard' } });
    const cut = await repo.addMessage({
      conversationId: id, role: 'assistant', content: 'par', status: 'interrupted', provider: 'provider_a', model: 'gpt-4o-mini',
      usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 }, latencyMs: 5, announce: { ownerId, source: 'dashboard' },
    });
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['message.received', 'message.completed', 'message.completed']);
    expect(events[0]!.data).toEqual({ applicationId, conversationId: id, messageId: begun!.messageId, source: 'dashboard' });
    expect(events[1]!.data).toEqual({
      applicationId, conversationId: id, messageId: answer.id, provider: 'provider_a', model: 'gpt-4o-mini',
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 }, latencyMs: 12, interrupted: false,
    });
    expect(events[2]!.data).toMatchObject({ messageId: cut.id, interrupted: true, usage: { totalTokens: 4 } });
  });

  it('writes nothing without an announcement, for an archived conversation, or for an unknown application', async () => {
    const quiet = (await repo.create({ applicationId, title: 'T', source: 'dashboard' })).id;
    await repo.beginTurn(quiet, 'no events asked', 100, 10_000);
    await repo.addMessage({ conversationId: quiet, role: 'assistant', content: 'a', status: 'complete' });
    expect(await eventsOf(quiet)).toEqual([]);
    const archived = (await repo.create({ applicationId, title: 'T', source: 'dashboard' })).id;
    await repo.archive(archived);
    await repo.beginTurn(archived, 'refused', 100, 10_000, { ownerId, source: 'dashboard' });
    expect(await eventsOf(archived)).toEqual([]);
    const nowhere = randomUUID();
    await expect(repo.beginFirstTurn({ id: nowhere, applicationId: randomUUID(), title: 'T', source: 'api' }, 'hi', { ownerId, source: 'api' })).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(await eventsOf(nowhere)).toEqual([]);
  });

  it('concurrent turns sharing statements each write their own events once', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, async () => (await repo.create({ applicationId, title: 'T', source: 'widget' })).id));
    const firsts = Array.from({ length: 5 }, () => randomUUID());
    const [begun, opened] = await Promise.all([
      Promise.all(ids.map((id, i) => repo.beginTurn(id, `q${i}`, 100, 10_000, { ownerId, source: 'widget' }))),
      Promise.all(firsts.map((id) => repo.beginFirstTurn({ id, applicationId, title: 'T', source: 'widget' }, 'first', { ownerId, source: 'widget' }))),
    ]);
    const answers = await Promise.all(ids.map((id, i) => repo.addMessage({ conversationId: id, role: 'assistant', content: `a${i}`, status: 'complete', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, announce: { ownerId, source: 'widget' } })));
    for (const [i, id] of ids.entries()) {
      const events = await eventsOf(id);
      expect(events.map((e) => [e.type, e.data.messageId])).toEqual([['message.received', begun[i]!.messageId], ['message.completed', answers[i]!.id]]);
    }
    for (const [i, id] of firsts.entries()) {
      expect((await eventsOf(id)).map((e) => [e.type, e.data.messageId])).toEqual([['conversation.started', undefined], ['message.received', opened[i]!.messageId]]);
    }
  });
});
