import { randomUUID } from 'node:crypto';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { TypeOrmConversationRepository } from '../../../adapters/persistence/conversations/type-orm-conversation.repository';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryConfigVersionRepository } from '../../../adapters/persistence/model-configs/in-memory-config-version.repository';
import { InMemoryMessageRatingRepository } from '../../../adapters/persistence/model-configs/in-memory-message-rating.repository';
import { InMemoryModelConfigRepository } from '../../../adapters/persistence/model-configs/in-memory-model-config.repository';
import { TypeOrmConfigVersionRepository } from '../../../adapters/persistence/model-configs/type-orm-config-version.repository';
import { TypeOrmMessageRatingRepository } from '../../../adapters/persistence/model-configs/type-orm-message-rating.repository';
import { TypeOrmModelConfigRepository } from '../../../adapters/persistence/model-configs/type-orm-model-config.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { MAX_CONFIGS_PER_APPLICATION, MAX_VERSIONS_PER_CONFIG } from '../../../core/model-configs/domain/model-config';
import type { ConfigVersionRepository } from '../../../core/model-configs/ports/config-version-repository.port';
import type { MessageRatingRepository } from '../../../core/model-configs/ports/message-rating-repository.port';
import type { ModelConfigRepository } from '../../../core/model-configs/ports/model-config-repository.port';
import { ConflictError, ValidationError } from '../../../core/shared/errors';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface Subject {
  applications: ApplicationRepository;
  configs: ModelConfigRepository;
  versions: ConfigVersionRepository;
  ratings: MessageRatingRepository;
  /** An application of a fresh owner. */
  anApplication(): Promise<string>;
  /** Stores a message in a conversation of the application and returns its ids. */
  aMessage(applicationId: string, fields: { role: 'user' | 'assistant'; status?: 'complete' | 'failed'; configVersionId?: string | null }): Promise<{ conversationId: string; messageId: string }>;
  close(): Promise<void>;
}

const variants: Array<[string, () => Promise<Subject>]> = [
  [
    'in-memory',
    async () => {
      const applications = new InMemoryApplicationRepository();
      const owners = (id: string) => applications.apps.get(id)?.ownerId;
      const configs = new InMemoryModelConfigRepository(owners);
      const ratings = new InMemoryMessageRatingRepository();
      return {
        applications,
        configs,
        versions: new InMemoryConfigVersionRepository(configs),
        ratings,
        anApplication: async () => (await applications.create({ ownerId: randomUUID(), name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] })).id,
        aMessage: async (_applicationId, fields) => {
          const ids = { conversationId: randomUUID(), messageId: randomUUID() };
          ratings.messages.set(ids.messageId, { id: ids.messageId, conversationId: ids.conversationId, status: 'complete', configVersionId: null, rating: null, ...fields });
          return ids;
        },
        close: async () => undefined,
      };
    },
  ],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Subject>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const ds = db.dataSource;
      const users = new TypeOrmUserRepository(ds);
      const applications = new TypeOrmApplicationRepository(ds);
      const conversations = new TypeOrmConversationRepository(ds);
      return {
        applications,
        configs: new TypeOrmModelConfigRepository(ds),
        versions: new TypeOrmConfigVersionRepository(ds),
        ratings: new TypeOrmMessageRatingRepository(ds),
        anApplication: async () => {
          const user = await users.create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
          return (await applications.create({ ownerId: user.id, name: 'A', description: '', slug: `a-${randomUUID()}`, allowedOrigins: [] })).id;
        },
        aMessage: async (applicationId, fields) => {
          const conversation = await conversations.create({ applicationId, title: 'T', source: 'dashboard' });
          const message = await conversations.addMessage({ conversationId: conversation.id, content: 'x', status: 'complete', ...fields });
          return { conversationId: conversation.id, messageId: message.id };
        },
        close: () => db.close(),
      };
    },
  ]),
];

const SETTINGS = { temperature: 0.7, maxTokens: 2048, topP: 1 };

describe.each(variants)('model config repositories (%s)', (_name, open) => {
  let s: Subject;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(() => s.close());

  const aConfig = (applicationId: string, fields: { makeDefault?: boolean; name?: string } = {}) =>
    s.configs.create({ applicationId, name: fields.name ?? 'C', provider: 'provider_a', modelId: 'gpt-4o', settings: SETTINGS, makeDefault: fields.makeDefault ?? false });

  const aVersion = (configId: string, applicationId: string, fields: { label?: string; share?: number; isActive?: boolean } = {}) =>
    s.versions.create({
      configId,
      applicationId,
      label: fields.label ?? `L-${randomUUID()}`,
      provider: 'provider_a',
      modelId: 'gpt-4o',
      settings: SETTINGS,
      trafficShare: fields.share ?? 0,
      isActive: fields.isActive ?? true,
    });

  const defaultsOf = async (applicationId: string) => (await s.configs.listByApplication(applicationId, 0, 100)).filter((c) => c.isDefault).map((c) => c.id);

  describe('configs', () => {
    it('makes the first config the default and a later one only when asked', async () => {
      const app = await s.anApplication();
      const first = await aConfig(app);
      const second = await aConfig(app);
      expect([first.isDefault, second.isDefault]).toEqual([true, false]);
      const third = await aConfig(app, { makeDefault: true });
      expect(await defaultsOf(app)).toEqual([third.id]);
      expect((await s.configs.findDefault(app))!.id).toBe(third.id);
    });

    it('finds a config with its owner, stores settings as given and updates only what changes', async () => {
      const app = await s.anApplication();
      const config = await aConfig(app);
      const found = await s.configs.findWithOwner(config.id);
      expect(found!.ownerId).toBe((await s.applications.findById(app))!.ownerId);
      expect(found!.config.settings).toEqual(SETTINGS);
      const updated = await s.configs.update(config.id, { name: 'Renamed', settings: { ...SETTINGS, systemPrompt: 'Hi' } });
      expect(updated).toMatchObject({ name: 'Renamed', provider: 'provider_a', settings: { systemPrompt: 'Hi' } });
      expect(await s.configs.findWithOwner(randomUUID())).toBeNull();
    });

    it('leaves exactly one default after many concurrent switches', async () => {
      const app = await s.anApplication();
      const configs: { id: string }[] = [];
      for (let i = 0; i < 5; i++) configs.push(await aConfig(app));
      await Promise.all(Array.from({ length: 30 }, (_, i) => s.configs.setDefault(configs[i % configs.length]!.id)));
      expect(await defaultsOf(app)).toHaveLength(1);
    });

    it('makes exactly one of many concurrent first configs the default', async () => {
      const app = await s.anApplication();
      await Promise.all(Array.from({ length: 8 }, () => aConfig(app)));
      expect(await defaultsOf(app)).toHaveLength(1);
    });

    it('does not delete the default config, and deletes another with its versions', async () => {
      const app = await s.anApplication();
      const base = await aConfig(app);
      const other = await aConfig(app);
      const version = await aVersion(other.id, app);
      expect(await s.configs.delete(base.id)).toBe('default');
      expect(await s.configs.findWithOwner(base.id)).not.toBeNull();
      expect(await s.configs.delete(other.id)).toBe('deleted');
      expect(await s.versions.findById(version.id)).toBeNull();
      expect(await s.configs.delete(other.id)).toBe('missing');
    });

    it('holds at most the maximum of configs per application', async () => {
      const app = await s.anApplication();
      for (let i = 0; i < MAX_CONFIGS_PER_APPLICATION; i++) await aConfig(app);
      await expect(aConfig(app)).rejects.toBeInstanceOf(ConflictError);
    });
  });

  describe('versions', () => {
    it('names versions v1, v2... unless named, and refuses a label used in the config in any case', async () => {
      const app = await s.anApplication();
      const config = await aConfig(app);
      expect((await aVersion(config.id, app, { label: 'Control' })).version).toBe('v1');
      expect((await aVersion(config.id, app)).version).toBe('v2');
      await expect(aVersion(config.id, app, { label: 'CONTROL' })).rejects.toBeInstanceOf(ConflictError);
      const other = await aConfig(app);
      await expect(aVersion(other.id, app, { label: 'Control' })).resolves.toBeDefined();
    });

    it('keeps active shares at most 100% even when versions are created concurrently', async () => {
      const app = await s.anApplication();
      const config = await aConfig(app);
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => aVersion(config.id, app, { share: 3000 })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ValidationError);
    });

    it('checks the shares again on update, counting inactive versions as 0', async () => {
      const app = await s.anApplication();
      const config = await aConfig(app);
      const a = await aVersion(config.id, app, { share: 6000 });
      const b = await aVersion(config.id, app, { share: 5000, isActive: false });
      await expect(s.versions.update(b.id, { isActive: true })).rejects.toBeInstanceOf(ValidationError);
      await s.versions.update(a.id, { trafficShare: 5000 });
      expect((await s.versions.update(b.id, { isActive: true, label: 'Now on' })).isActive).toBe(true);
      await expect(s.versions.update(a.id, { trafficShare: 5001 })).rejects.toBeInstanceOf(ValidationError);
    });

    it("redistributes a deleted active version's share over the other active ones, preserving the sum", async () => {
      const app = await s.anApplication();
      const config = await aConfig(app);
      const a = await aVersion(config.id, app, { share: 1000 });
      const b = await aVersion(config.id, app, { share: 2000 });
      const off = await aVersion(config.id, app, { share: 4000, isActive: false });
      const gone = await aVersion(config.id, app, { share: 3333 });
      await s.versions.delete(gone.id);
      const shares = Object.fromEntries((await s.versions.listByConfig(config.id)).map((v) => [v.id, v.trafficShare]));
      expect(shares).toEqual({ [a.id]: 2111, [b.id]: 4222, [off.id]: 4000 });
      await s.versions.delete(off.id);
      expect((await s.versions.findById(a.id))!.trafficShare).toBe(2111);
    });

    it('offers only the active, non-zero versions of the default config for assignment', async () => {
      const app = await s.anApplication();
      const base = await aConfig(app);
      const other = await aConfig(app);
      const a = await aVersion(base.id, app, { share: 2500 });
      await aVersion(base.id, app, { share: 0 });
      await aVersion(base.id, app, { share: 2500, isActive: false });
      await aVersion(other.id, app, { share: 5000 });
      expect(await s.versions.activeSharesOfDefault(app)).toEqual([{ id: a.id, share: 2500 }]);
      expect(await s.versions.activeSharesOfDefault(await s.anApplication())).toEqual([]);
    });

    it('loses no outcome when many answers are recorded at once', async () => {
      const app = await s.anApplication();
      const version = await aVersion((await aConfig(app)).id, app);
      const outcomes = Array.from({ length: 60 }, (_, i) => (i % 4 === 3 ? { ok: false as const } : { ok: true as const, latencyMs: 100 + i, totalTokens: 10 + (i % 7) }));
      await Promise.all(outcomes.map((o) => s.versions.recordOutcome(version.id, o)));
      const successes = outcomes.filter((o): o is { ok: true; latencyMs: number; totalTokens: number } => o.ok);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const counters = (await s.versions.findById(version.id))!.counters;
      expect(counters).toMatchObject({ requestCount: 60, errorCount: 15 });
      expect(counters.avgLatencyMs).toBeCloseTo(mean(successes.map((o) => o.latencyMs)), 9);
      expect(counters.avgTokensUsed).toBeCloseTo(mean(successes.map((o) => o.totalTokens)), 9);
      await expect(s.versions.recordOutcome(randomUUID(), { ok: false })).resolves.toBeUndefined();
    });
  });

  describe('the control arm', () => {
    it("loses no outcome of the config's own share when many answers are recorded at once, and starts at zero", async () => {
      const app = await s.anApplication();
      const config = await aConfig(app);
      expect(await s.configs.controlCounters(config.id)).toEqual({ requestCount: 0, errorCount: 0, avgLatencyMs: 0, avgTokensUsed: 0 });
      const outcomes = Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? { ok: false as const } : { ok: true as const, latencyMs: 200 + i, totalTokens: 20 + (i % 3) }));
      await Promise.all(outcomes.map((o) => s.configs.recordControlOutcome(config.id, o)));
      const successes = outcomes.filter((o): o is { ok: true; latencyMs: number; totalTokens: number } => o.ok);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const counters = await s.configs.controlCounters(config.id);
      expect(counters).toMatchObject({ requestCount: 40, errorCount: 8 });
      expect(counters.avgLatencyMs).toBeCloseTo(mean(successes.map((o) => o.latencyMs)), 9);
      expect(counters.avgTokensUsed).toBeCloseTo(mean(successes.map((o) => o.totalTokens)), 9);
      await expect(s.configs.recordControlOutcome(randomUUID(), { ok: false })).resolves.toBeUndefined();
    });
  });

  describe('ratings', () => {
    it('rates assistant answers only, replaces a rating, and averages them per version', async () => {
      const app = await s.anApplication();
      const version = await aVersion((await aConfig(app)).id, app);
      const first = await s.aMessage(app, { role: 'assistant', configVersionId: version.id });
      const second = await s.aMessage(app, { role: 'assistant', configVersionId: version.id });
      const question = await s.aMessage(app, { role: 'user' });
      const failed = await s.aMessage(app, { role: 'assistant', status: 'failed', configVersionId: version.id });
      expect(await s.ratings.rate(first.conversationId, first.messageId, 5)).toBe('rated');
      expect(await s.ratings.rate(first.conversationId, first.messageId, 4)).toBe('rated');
      expect(await s.ratings.rate(second.conversationId, second.messageId, 1)).toBe('rated');
      expect(await s.ratings.rate(question.conversationId, question.messageId, 5)).toBe('not-rateable');
      expect(await s.ratings.rate(failed.conversationId, failed.messageId, 5)).toBe('not-rateable');
      expect(await s.ratings.rate(second.conversationId, first.messageId, 5)).toBe('missing');
      const averages = await s.ratings.averageByVersion([version.id, randomUUID()]);
      expect([...averages.entries()]).toEqual([[version.id, 2.5]]);
    });
  });

  it('holds at most the maximum of versions per config', async () => {
    const app = await s.anApplication();
    const config = await aConfig(app);
    for (let i = 0; i < MAX_VERSIONS_PER_CONFIG; i++) await aVersion(config.id, app);
    await expect(aVersion(config.id, app)).rejects.toBeInstanceOf(ConflictError);
  });
});
