import { randomUUID } from 'node:crypto';
import { CachedWebhookRepository } from '../../../adapters/cache/cached-event-subscriptions';
import { MemoryCache } from '../../../adapters/cache/memory.cache';
import type { Database } from '../../../adapters/persistence/data-source';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { openTestDatabase } from '../../support/test-database';

/** Events of owners without webhooks skip the lookup; a new webhook is found by the very next event. */
describe('webhooks remembered per owner as none', () => {
  let db: Database;
  let ownerId: string;

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    ownerId = (await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' })).id;
  });
  afterAll(() => db.close());

  it('finds a webhook created after its owner was remembered as having none', async () => {
    const cache = new MemoryCache({ ttlMs: 60_000 });
    const webhooks = new CachedWebhookRepository(db.dataSource, cache);
    const at = new Date();
    expect(await webhooks.subscribedTo(ownerId, 'message.completed', null, at)).toEqual([]);
    const created = await webhooks.create({
      id: randomUUID(),
      ownerId,
      applicationId: null,
      url: 'https://hooks.example.com/in',
      events: ['message.completed'],
      description: '',
      secretSealed: 'sealed',
      createdAt: at,
    });
    const found = await webhooks.subscribedTo(ownerId, 'message.completed', null, new Date(at.getTime() + 1000));
    expect(found.map((w) => w.id)).toEqual([created.id]);
  });

  it('finds the webhook another instance created once that instance invalidates the shared entry', async () => {
    const cache = new MemoryCache({ ttlMs: 60_000 });
    const reader = new CachedWebhookRepository(db.dataSource, cache);
    const writer = new CachedWebhookRepository(db.dataSource, cache);
    const other = (await new TypeOrmUserRepository(db.dataSource).create({ email: `${randomUUID()}@example.com`, displayName: 'V', role: 'developer', passwordHash: 'h' })).id;
    const at = new Date();
    expect(await reader.subscribedTo(other, 'message.received', null, at)).toEqual([]);
    await writer.create({ id: randomUUID(), ownerId: other, applicationId: null, url: 'https://hooks.example.com/b', events: ['message.received'], description: '', secretSealed: 'sealed', createdAt: at });
    expect(await reader.subscribedTo(other, 'message.received', null, new Date(at.getTime() + 1000))).toHaveLength(1);
  });
});
