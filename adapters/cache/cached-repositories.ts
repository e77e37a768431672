import type { KnowledgeBaseRepository, NewKnowledgeBase } from '../../core/knowledge/ports/knowledge-base-repository.port';
import type { ProviderId } from '../../core/ai/domain/provider-id';
import type { Application } from '../../core/applications/domain/application';
import type { TeamRole } from '../../core/access/roles';
import type { ApplicationChanges, ApplicationHolder, ApplicationRepository, NewApplication } from '../../core/applications/ports/application-repository.port';
import type { PlanTier, SubscriptionStatus } from '../../core/billing/domain/plans';
import type { Subscription } from '../../core/billing/domain/subscription';
import type { SubscriptionRepository } from '../../core/billing/ports/subscription-repository.port';
import type { KnowledgeDocument } from '../../core/knowledge/domain/knowledge-document';
import type { EmbeddingGroup, KnowledgeDocumentRepository, NewDocumentVersion, NewKnowledgeDocument } from '../../core/knowledge/ports/knowledge-document-repository.port';
import type { ModelConfig } from '../../core/model-configs/domain/model-config';
import type { ModelConfigChanges, ModelConfigRepository, NewModelConfig } from '../../core/model-configs/ports/model-config-repository.port';
import type { AnswerOutcome, ConfigVersion, VersionCounters } from '../../core/model-configs/domain/config-version';
import type { TrafficShare } from '../../core/model-configs/domain/traffic';
import type { ConfigVersionChanges, ConfigVersionRepository, NewConfigVersion } from '../../core/model-configs/ports/config-version-repository.port';
import type { PromptTemplate } from '../../core/prompts/domain/prompt-template';
import type { NewPromptTemplate, PromptTemplateChanges, PromptTemplateRepository } from '../../core/prompts/ports/prompt-template-repository.port';
import type { ProviderKey } from '../../core/provider-keys/domain/provider-key';
import type { NewProviderKey, ProviderKeyRepository } from '../../core/provider-keys/ports/provider-key-repository.port';
import type { Conversation } from '../../core/conversations/domain/conversation';
import type { BegunTurn, ConversationRepository, NewConversation, NewMessage, TurnAnnouncement, UntitledRename } from '../../core/conversations/ports/conversation-repository.port';
import type { Cache } from '../../core/shared/cache.port';
import { ambientTransaction } from '../persistence/sql';
import type { OwnerLimit } from '../../core/shared/owner-limit';
import type { User } from '../../core/users/domain/user';
import type { NewUser, UserRepository } from '../../core/users/ports/user-repository.port';

/*
 * Read-through caching of what every chat turn and authenticated request reads (SPEC 4.3's path runs
 * them all): each decorator caches the hot read of its repository and invalidates it on every write
 * that goes through it, which is every write there is (the tables have no other writers). Regions:
 * `user`, `app`, `sub`, `pk` (which providers a user has keys for: the fact, never the key), `mc`
 * (default model config per application), `mcv` (the A/B shares of that default, which every new
 * conversation draws its version from), `pt` (default prompt template), `kd` (ready documents),
 * `apikey` (public API keys by digest, read through ApiKeyLookup), `conv` (a conversation with its
 * owner, as a chat turn starts from it), and `wh` and `wf` (whether an owner has webhooks, workflows:
 * cached-event-subscriptions.ts).
 */

/** Runs a write, then forgets the regions it may have changed, whether it succeeded or not (a failed write may have applied). */
async function invalidatingAfter<T>(cache: Cache, regions: string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    for (const region of regions) await cache.invalidateRegion(region);
  }
}

export class CachedUserRepository implements UserRepository {
  constructor(private readonly inner: UserRepository, private readonly cache: Cache) {}

  create(user: NewUser): Promise<User> {
    return this.inner.create(user);
  }
  findById(id: string): Promise<User | null> {
    return this.cache.getOrLoad(`user:${id}`, () => this.inner.findById(id));
  }
  findByEmail(email: string): Promise<User | null> {
    return this.inner.findByEmail(email);
  }
  async update(id: string, changes: Parameters<UserRepository['update']>[1]): Promise<User | null> {
    try {
      return await this.inner.update(id, changes);
    } finally {
      await this.cache.invalidate(`user:${id}`);
    }
  }
  async delete(id: string): Promise<void> {
    try {
      await this.inner.delete(id);
    } finally {
      // The cascade took the user's applications, subscription and keys with it.
      await this.cache.invalidate(`user:${id}`, `sub:${id}`, `pk:${id}`);
      for (const region of ['app', 'apikey', 'conv']) await this.cache.invalidateRegion(region);
    }
  }
}

export class CachedApplicationRepository implements ApplicationRepository {
  constructor(private readonly inner: ApplicationRepository, private readonly cache: Cache) {}

  create(app: NewApplication, limit?: OwnerLimit | null): Promise<Application> {
    return this.inner.create(app, limit);
  }
  findById(id: string): Promise<Application | null> {
    return this.cache.getOrLoad(`app:${id}`, () => this.inner.findById(id));
  }
  findBySlug(slug: string): Promise<Application | null> {
    return this.inner.findBySlug(slug);
  }
  listByOwner(ownerId: string, offset: number, limit: number) {
    return this.inner.listByOwner(ownerId, offset, limit);
  }
  countByOwner(ownerId: string): Promise<number> {
    return this.inner.countByOwner(ownerId);
  }
  listVisible(userId: string, teamId: string | null | undefined, offset: number, limit: number) {
    return this.inner.listVisible(userId, teamId, offset, limit);
  }
  /** Never cached: a member removed from a team loses access with the next request. */
  roleInTeam(teamId: string, userId: string): Promise<TeamRole | null> {
    return this.inner.roleInTeam(teamId, userId);
  }
  async moveTo(id: string, holder: ApplicationHolder, limit?: OwnerLimit | null): Promise<Application> {
    try {
      return await this.inner.moveTo(id, holder, limit);
    } finally {
      // The owner changed: the cached conversations and API keys carry it; its webhooks and workflows moved
      // to an owner that may have had none (cached-event-subscriptions.ts).
      await this.cache.invalidate(`app:${id}`);
      for (const region of ['apikey', 'conv', 'wh', 'wf']) await this.cache.invalidateRegion(region);
    }
  }
  async reassignTeam(teamId: string, ownerId: string): Promise<void> {
    // Every application of the team changed owner; cached conversations and API keys carry it.
    await invalidatingAfter(this.cache, ['app', 'apikey', 'conv', 'wh', 'wf'], () => this.inner.reassignTeam(teamId, ownerId));
  }
  async update(id: string, changes: ApplicationChanges): Promise<Application> {
    try {
      return await this.inner.update(id, changes);
    } finally {
      await this.cache.invalidate(`app:${id}`);
    }
  }
  async delete(id: string): Promise<void> {
    try {
      await this.inner.delete(id);
    } finally {
      await this.cache.invalidate(`app:${id}`, `mc:${id}`, `mcv:${id}`, `pt:${id}`, `kd:${id}`);
      // The application's own API keys and its conversations went with it.
      for (const region of ['apikey', 'conv']) await this.cache.invalidateRegion(region);
    }
  }
}

export class CachedSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly inner: SubscriptionRepository, private readonly cache: Cache) {}

  ensure(userId: string): Promise<Subscription | null> {
    return this.cache.getOrLoad(`sub:${userId}`, () => this.inner.ensure(userId));
  }
  async change(userId: string, change: { plan: PlanTier; status: SubscriptionStatus; startedAt: Date }): Promise<Subscription | null> {
    try {
      return await this.inner.change(userId, change);
    } finally {
      await this.cache.invalidate(`sub:${userId}`);
      // Inside a unit of work (a payment webhook, an admin change with its event) a read between this
      // invalidation and the commit would cache the old row again: forget it once more after the commit.
      ambientTransaction.getStore()?.afterCommit.push(() => void this.cache.invalidate(`sub:${userId}`).catch(() => undefined));
    }
  }
}

/** Skips the key lookup of users who have no key for the provider (most turns on a paid plan). */
export class CachedProviderKeyRepository implements ProviderKeyRepository {
  constructor(private readonly inner: ProviderKeyRepository, private readonly cache: Cache) {}

  async save(key: NewProviderKey, now: Date): Promise<ProviderKey> {
    try {
      return await this.inner.save(key, now);
    } finally {
      await this.cache.invalidate(`pk:${key.userId}`);
    }
  }
  async find(userId: string, provider: ProviderId): Promise<ProviderKey | null> {
    const providers = await this.cache.getOrLoad(`pk:${userId}`, async () => (await this.inner.listByUser(userId)).map((k) => k.provider));
    return providers.includes(provider) ? this.inner.find(userId, provider) : null;
  }
  listByUser(userId: string): Promise<ProviderKey[]> {
    return this.inner.listByUser(userId);
  }
  async delete(userId: string, provider: ProviderId): Promise<boolean> {
    try {
      return await this.inner.delete(userId, provider);
    } finally {
      await this.cache.invalidate(`pk:${userId}`);
    }
  }
  markValidated(userId: string, provider: ProviderId, at: Date): Promise<void> {
    return this.inner.markValidated(userId, provider, at);
  }
  markUsed(userId: string, provider: ProviderId, at: Date): Promise<void> {
    return this.inner.markUsed(userId, provider, at);
  }
}

/**
 * Writes name a config, not its application: they invalidate every application's cached default, and
 * the A/B shares drawn from it (which config is the default decides whose versions share the traffic).
 */
export class CachedModelConfigRepository implements ModelConfigRepository {
  constructor(private readonly inner: ModelConfigRepository, private readonly cache: Cache) {}

  create(config: NewModelConfig): Promise<ModelConfig> {
    return this.changing(() => this.inner.create(config));
  }
  findWithOwner(id: string) {
    return this.inner.findWithOwner(id);
  }
  listByApplication(applicationId: string, offset: number, limit: number): Promise<ModelConfig[]> {
    return this.inner.listByApplication(applicationId, offset, limit);
  }
  findDefault(applicationId: string): Promise<ModelConfig | null> {
    return this.cache.getOrLoad(`mc:${applicationId}`, () => this.inner.findDefault(applicationId));
  }
  update(id: string, changes: ModelConfigChanges): Promise<ModelConfig> {
    return this.changing(() => this.inner.update(id, changes));
  }
  setDefault(id: string): Promise<ModelConfig> {
    return this.changing(() => this.inner.setDefault(id));
  }
  delete(id: string): Promise<'deleted' | 'default' | 'missing'> {
    return this.changing(() => this.inner.delete(id));
  }
  /** Metrics change nothing a cached read holds. */
  recordControlOutcome(id: string, outcome: AnswerOutcome): Promise<void> {
    return this.inner.recordControlOutcome(id, outcome);
  }
  controlCounters(id: string): Promise<VersionCounters> {
    return this.inner.controlCounters(id);
  }
  private changing<T>(write: () => Promise<T>): Promise<T> {
    return invalidatingAfter(this.cache, ['mc', 'mcv'], write);
  }
}

/** Version writes name a version, not its application: they invalidate every application's shares. Metrics change no share. */
export class CachedConfigVersionRepository implements ConfigVersionRepository {
  constructor(private readonly inner: ConfigVersionRepository, private readonly cache: Cache) {}

  create(version: NewConfigVersion): Promise<ConfigVersion> {
    return this.changing(() => this.inner.create(version));
  }
  findById(id: string): Promise<ConfigVersion | null> {
    return this.inner.findById(id);
  }
  listByConfig(configId: string): Promise<ConfigVersion[]> {
    return this.inner.listByConfig(configId);
  }
  update(id: string, changes: ConfigVersionChanges): Promise<ConfigVersion> {
    return this.changing(() => this.inner.update(id, changes));
  }
  delete(id: string): Promise<void> {
    return this.changing(() => this.inner.delete(id));
  }
  activeSharesOfDefault(applicationId: string): Promise<TrafficShare[]> {
    return this.cache.getOrLoad(`mcv:${applicationId}`, () => this.inner.activeSharesOfDefault(applicationId));
  }
  recordOutcome(id: string, outcome: AnswerOutcome): Promise<void> {
    return this.inner.recordOutcome(id, outcome);
  }
  private changing<T>(write: () => Promise<T>): Promise<T> {
    return invalidatingAfter(this.cache, ['mcv'], write);
  }
}

export class CachedPromptTemplateRepository implements PromptTemplateRepository {
  constructor(private readonly inner: PromptTemplateRepository, private readonly cache: Cache) {}

  create(template: NewPromptTemplate): Promise<PromptTemplate> {
    return this.changing(() => this.inner.create(template));
  }
  findWithOwner(id: string) {
    return this.inner.findWithOwner(id);
  }
  listByApplication(applicationId: string, offset: number, limit: number): Promise<PromptTemplate[]> {
    return this.inner.listByApplication(applicationId, offset, limit);
  }
  findDefault(applicationId: string): Promise<PromptTemplate | null> {
    return this.cache.getOrLoad(`pt:${applicationId}`, () => this.inner.findDefault(applicationId));
  }
  update(id: string, changes: PromptTemplateChanges): Promise<PromptTemplate> {
    return this.changing(() => this.inner.update(id, changes));
  }
  setDefault(id: string, isDefault: boolean): Promise<PromptTemplate> {
    return this.changing(() => this.inner.setDefault(id, isDefault));
  }
  delete(id: string): Promise<void> {
    return this.changing(() => this.inner.delete(id));
  }
  private changing<T>(write: () => Promise<T>): Promise<T> {
    return invalidatingAfter(this.cache, ['pt'], write);
  }
}

/** Ready documents per application, read by every chat turn to decide whether to retrieve at all. */
export class CachedKnowledgeDocumentRepository implements KnowledgeDocumentRepository {
  constructor(private readonly inner: KnowledgeDocumentRepository, private readonly cache: Cache) {}

  create(document: NewKnowledgeDocument): Promise<KnowledgeDocument> {
    return this.inner.create(document);
  }
  findById(id: string): Promise<KnowledgeDocument | null> {
    return this.inner.findById(id);
  }
  findWithOwner(id: string) {
    return this.inner.findWithOwner(id);
  }
  listByApplication(applicationId: string, offset: number, limit: number) {
    return this.inner.listByApplication(applicationId, offset, limit);
  }
  readyGroups(applicationId: string): Promise<EmbeddingGroup[]> {
    return this.cache.getOrLoad(`kd:${applicationId}`, () => this.inner.readyGroups(applicationId));
  }
  readyGroupsOfBase(baseId: string): Promise<EmbeddingGroup[]> {
    return this.inner.readyGroupsOfBase(baseId);
  }
  listProcessing(before: Date): Promise<KnowledgeDocument[]> {
    return this.inner.listProcessing(before);
  }
  startRun(id: string): Promise<number | null> {
    return this.inner.startRun(id);
  }
  setProgress(id: string, progress: number): Promise<boolean> {
    return this.inner.setProgress(id, progress);
  }
  markReady(id: string, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean> {
    return this.changing(() => this.inner.markReady(id, result));
  }
  markError(id: string, reason: string): Promise<boolean> {
    return this.changing(() => this.inner.markError(id, reason));
  }
  findByContentHash(applicationId: string, contentHash: string): Promise<KnowledgeDocument | null> {
    return this.inner.findByContentHash(applicationId, contentHash);
  }
  startReindex(id: string, settings: { chunkSize: number; chunkOverlap: number }): Promise<number | null> {
    return this.inner.startReindex(id, settings);
  }
  completeReindex(id: string, generation: number, result: { chunkCount: number; embeddingModel: string; embeddingDimension: number }): Promise<boolean> {
    return this.changing(() => this.inner.completeReindex(id, generation, result));
  }
  failReindex(id: string, generation: number, reason: string): Promise<boolean> {
    return this.inner.failReindex(id, generation, reason);
  }
  listReindexing(before: Date): Promise<KnowledgeDocument[]> {
    return this.inner.listReindexing(before);
  }
  findByFileName(applicationId: string, fileName: string): Promise<KnowledgeDocument | null> {
    return this.inner.findByFileName(applicationId, fileName);
  }
  startReplace(id: string, file: NewDocumentVersion, settings: { chunkSize: number; chunkOverlap: number }) {
    return this.inner.startReplace(id, file, settings);
  }
  listVersions(id: string) {
    return this.inner.listVersions(id);
  }
  findVersion(id: string, version: number) {
    return this.inner.findVersion(id, version);
  }
  setReindexProgress(id: string, generation: number, progress: number): Promise<boolean> {
    return this.inner.setReindexProgress(id, generation, progress);
  }
  /** The count decides whether a document is in the groups (a first chunk added by hand). */
  addChunks(id: string, delta: number): Promise<void> {
    return this.changing(() => this.inner.addChunks(id, delta));
  }
  storageKeysByApplication(applicationId: string): Promise<string[]> {
    return this.inner.storageKeysByApplication(applicationId);
  }
  storageKeysByOwner(ownerId: string): Promise<string[]> {
    return this.inner.storageKeysByOwner(ownerId);
  }
  delete(id: string): Promise<KnowledgeDocument | null> {
    return this.changing(() => this.inner.delete(id));
  }
  /** Only a document becoming ready or leaving the ready set changes the groups; writes name a document, not its application. */
  private changing<T>(write: () => Promise<T>): Promise<T> {
    return invalidatingAfter(this.cache, ['kd'], write);
  }
}

/**
 * The conversation a chat turn starts from, with its owner: the application, owner, key and A/B
 * version never change, and archiving through this repository invalidates it. An archive made by
 * another process's engine reaches the cache through Redis, or is refused by the engine meanwhile.
 */
export class CachedConversationRepository implements ConversationRepository {
  constructor(private readonly inner: ConversationRepository, private readonly cache: Cache) {}

  create(conversation: NewConversation): Promise<Conversation> {
    return this.inner.create(conversation);
  }
  findById(id: string): Promise<Conversation | null> {
    return this.inner.findById(id);
  }
  findWithOwner(id: string) {
    return this.inner.findWithOwner(id);
  }
  findForTurn(id: string) {
    return this.cache.getOrLoad(`conv:${id}`, () => this.inner.findForTurn(id), { keep: (found) => found !== null });
  }
  listByApplication(applicationId: string, offset: number, limit: number) {
    return this.inner.listByApplication(applicationId, offset, limit);
  }
  listByOwner(ownerId: string, filter: { applicationId?: string; teamId?: string | null }, offset: number, limit: number) {
    return this.inner.listByOwner(ownerId, filter, offset, limit);
  }
  async archive(id: string): Promise<void> {
    try {
      await this.inner.archive(id);
    } finally {
      await this.cache.invalidate(`conv:${id}`);
    }
  }
  addMessage(message: NewMessage) {
    return this.inner.addMessage(message);
  }
  beginTurn(conversationId: string, content: string, limit: number, maxChars: number, announce?: TurnAnnouncement, title?: UntitledRename): Promise<BegunTurn | null> {
    return this.inner.beginTurn(conversationId, content, limit, maxChars, announce, title);
  }
  /** The cached turn start's title may lag (its port says so); a rename is not worth an invalidation. */
  rename(id: string, title: string): Promise<boolean> {
    return this.inner.rename(id, title);
  }

  beginFirstTurn(conversation: NewConversation, content: string, announce?: TurnAnnouncement): Promise<BegunTurn> {
    return this.inner.beginFirstTurn(conversation, content, announce);
  }
  messages(conversationId: string) {
    return this.inner.messages(conversationId);
  }
}

/**
 * Knowledge bases: a change to the bases an application uses, or a base deleted, changes what its chat searches
 * (the document repository's cached groups, region `kd`).
 */
export class CachedKnowledgeBaseRepository implements KnowledgeBaseRepository {
  constructor(private readonly inner: KnowledgeBaseRepository, private readonly cache: Cache) {}

  create(base: NewKnowledgeBase) {
    return this.inner.create(base);
  }
  findById(id: string) {
    return this.inner.findById(id);
  }
  listVisible(userId: string, filter: { teamId?: string }, offset: number, limit: number) {
    return this.inner.listVisible(userId, filter, offset, limit);
  }
  countOwned(holder: { ownerId: string } | { teamId: string }) {
    return this.inner.countOwned(holder);
  }
  documentCount(id: string) {
    return this.inner.documentCount(id);
  }
  documentCounts(ids: string[]) {
    return this.inner.documentCounts(ids);
  }
  update(id: string, changes: { name?: string; description?: string }) {
    return this.inner.update(id, changes);
  }
  delete(id: string) {
    return invalidatingAfter(this.cache, ['kd'], () => this.inner.delete(id));
  }
  usedBy(applicationId: string) {
    return this.inner.usedBy(applicationId);
  }
  setUsedBy(applicationId: string, baseIds: string[]) {
    return invalidatingAfter(this.cache, ['kd'], () => this.inner.setUsedBy(applicationId, baseIds));
  }
}
