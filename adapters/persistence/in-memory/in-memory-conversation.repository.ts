import { randomUUID } from 'node:crypto';
import type { Conversation, Message } from '../../../core/conversations/domain/conversation';
import type {
  BegunTurn,
  ConversationRepository,
  NewConversation,
  NewMessage,
  Turn,
  TurnAnnouncement,
  UntitledRename,
} from '../../../core/conversations/ports/conversation-repository.port';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';

/**
 * Conversations and messages in maps (the in-memory platform, tests). Applications are looked up in the
 * application repository given, as the SQL repository joins them. Domain events of turns are not written.
 */
export class InMemoryConversationRepository implements ConversationRepository {
  readonly conversations = new Map<string, Conversation>();
  readonly messagesOf = new Map<string, Message[]>();

  constructor(private readonly applications: Pick<ApplicationRepository, 'findById'>) {}

  async create(c: NewConversation): Promise<Conversation> {
    if (!(await this.applications.findById(c.applicationId))) throw new NotFoundError('Application');
    const id = c.id ?? randomUUID();
    if (this.conversations.has(id)) throw new ConflictError('A conversation with this id exists');
    const now = new Date();
    const conversation: Conversation = {
      id,
      applicationId: c.applicationId,
      title: c.title,
      status: 'active',
      source: c.source,
      apiKeyId: c.apiKeyId ?? null,
      configVersionId: c.configVersionId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.conversations.set(id, conversation);
    this.messagesOf.set(id, []);
    return { ...conversation };
  }

  async findById(id: string): Promise<Conversation | null> {
    const c = this.conversations.get(id);
    return c ? { ...c } : null;
  }

  async findWithOwner(id: string): Promise<{ conversation: Conversation; ownerId: string } | null> {
    const conversation = this.conversations.get(id);
    if (!conversation) return null;
    const app = await this.applications.findById(conversation.applicationId);
    return app ? { conversation: { ...conversation }, ownerId: app.ownerId } : null;
  }

  findForTurn(id: string): Promise<{ conversation: Conversation; ownerId: string } | null> {
    return this.findWithOwner(id);
  }

  async listByApplication(applicationId: string, offset: number, limit: number) {
    return page([...this.conversations.values()].filter((c) => c.applicationId === applicationId), offset, limit);
  }

  async listByOwner(ownerId: string, filter: { applicationId?: string; teamId?: string | null }, offset: number, limit: number) {
    const mine: Conversation[] = [];
    for (const c of this.conversations.values()) {
      if (filter.applicationId && c.applicationId !== filter.applicationId) continue;
      const app = await this.applications.findById(c.applicationId);
      if (app?.ownerId === ownerId) mine.push(c);
    }
    return page(mine, offset, limit);
  }

  async archive(id: string): Promise<void> {
    const c = this.conversations.get(id);
    if (c) Object.assign(c, { status: 'archived', updatedAt: new Date() });
  }

  async addMessage(m: NewMessage): Promise<Message> {
    const list = this.messagesOf.get(m.conversationId);
    const conversation = this.conversations.get(m.conversationId);
    if (!list || !conversation) throw new NotFoundError('Conversation');
    const message: Message = {
      id: randomUUID(),
      conversationId: m.conversationId,
      role: m.role,
      content: m.content,
      status: m.status,
      provider: m.provider ?? null,
      model: m.model ?? null,
      usage: m.usage ?? null,
      latencyMs: m.latencyMs ?? null,
      error: m.error ?? null,
      configVersionId: m.configVersionId ?? null,
      sources: m.sources ?? null,
      rating: null,
      ...(m.metadata ? { metadata: m.metadata } : {}),
      createdAt: new Date(),
    };
    list.push(message);
    conversation.updatedAt = message.createdAt;
    return structuredClone(message);
  }

  async beginTurn(conversationId: string, content: string, limit: number, maxChars: number, _announce?: TurnAnnouncement, title?: UntitledRename): Promise<BegunTurn | null> {
    const conversation = this.conversations.get(conversationId);
    if (!conversation) return null;
    if (conversation.status === 'archived') return { conversation: { ...conversation }, history: [] };
    const before = { ...conversation };
    if (title && conversation.title === title.untitled && (this.messagesOf.get(conversationId) ?? []).length === 0) conversation.title = title.title;
    const history = this.history(conversationId, limit, maxChars);
    const stored = await this.addMessage({ conversationId, role: 'user', content, status: 'complete' });
    return { conversation: { ...before, title: conversation.title }, history, messageId: stored.id };
  }

  async rename(id: string, title: string): Promise<boolean> {
    const conversation = this.conversations.get(id);
    if (!conversation) return false;
    conversation.title = title;
    conversation.updatedAt = new Date();
    return true;
  }

  async beginFirstTurn(c: NewConversation, content: string): Promise<BegunTurn> {
    const conversation = await this.create(c);
    const stored = await this.addMessage({ conversationId: conversation.id, role: 'user', content, status: 'complete' });
    return { conversation, history: [], messageId: stored.id };
  }

  async messages(conversationId: string): Promise<Message[]> {
    return structuredClone(this.messagesOf.get(conversationId) ?? []);
  }

  /** The latest messages with text (failed answers left out), oldest first, within `limit` and about `maxChars`. */
  private history(conversationId: string, limit: number, maxChars: number): Turn[] {
    const turns: Turn[] = [];
    let chars = 0;
    const list = (this.messagesOf.get(conversationId) ?? []).filter((m) => m.status !== 'failed' && m.content);
    for (let i = list.length - 1; i >= 0 && turns.length < limit; i--) {
      const m = list[i]!;
      if (turns.length > 0 && chars + m.content.length > maxChars) break;
      chars += m.content.length;
      turns.push({ role: m.role, content: m.content });
    }
    return turns.reverse();
  }
}

function page(items: Conversation[], offset: number, limit: number) {
  const sorted = items.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return { items: sorted.slice(offset, offset + limit).map((c) => ({ ...c })), total: sorted.length };
}
