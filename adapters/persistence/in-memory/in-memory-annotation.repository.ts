import { randomUUID } from 'node:crypto';
import { DEFAULT_ANNOTATION_SETTINGS, type Annotation, type AnnotationKind, type AnnotationSettings } from '../../../core/logs/domain/annotation';
import type { AnnotatableAnswer, AnnotationRepository, AnnotationVector, NewAnnotation } from '../../../core/logs/ports/annotation-repository.port';
import type { ConversationRepository } from '../../../core/conversations/ports/conversation-repository.port';
import { ConflictError } from '../../../core/shared/errors';

type Stored = Annotation & { embedding: number[]; embeddingModel: string };

/** Annotations in maps (the in-memory platform, tests); answers are read from the conversation repository given. */
export class InMemoryAnnotationRepository implements AnnotationRepository {
  readonly items = new Map<string, Stored>();
  readonly settingsOf = new Map<string, AnnotationSettings>();
  /** The annotation that answered each message (what `messages.metadata.annotationId` holds in SQL). */
  readonly answeredBy = new Map<string, string>();

  constructor(private readonly conversations?: Pick<ConversationRepository, 'findById' | 'messages'> & { messagesOf?: Map<string, { id: string }[]> }) {}

  async create(a: NewAnnotation, limit: number): Promise<Annotation> {
    const of = [...this.items.values()].filter((x) => x.applicationId === a.applicationId);
    if (of.length >= limit) throw new ConflictError(`An application holds at most ${limit} annotations; delete some first`);
    if (a.messageId && of.some((x) => x.messageId === a.messageId)) throw new ConflictError('This answer is annotated already; edit its annotation instead');
    const now = new Date();
    const stored: Stored = { id: randomUUID(), applicationId: a.applicationId, messageId: a.messageId, kind: a.kind, question: a.question, answer: a.answer, createdBy: a.createdBy, hitCount: 0, lastHitAt: null, createdAt: now, updatedAt: now, embedding: a.embedding, embeddingModel: a.embeddingModel };
    this.items.set(stored.id, stored);
    return strip(stored);
  }

  async find(applicationId: string, id: string): Promise<Annotation | null> {
    const a = this.items.get(id);
    return a && a.applicationId === applicationId ? strip(a) : null;
  }

  async list(applicationId: string, filter: { search?: string }, offset: number, limit: number): Promise<{ items: Annotation[]; total: number }> {
    const needle = filter.search?.toLowerCase();
    const all = (await this.all(applicationId)).reverse().filter((a) => !needle || a.question.toLowerCase().includes(needle) || a.answer.toLowerCase().includes(needle));
    return { items: all.slice(offset, offset + limit), total: all.length };
  }

  async all(applicationId: string): Promise<Annotation[]> {
    return [...this.items.values()].filter((a) => a.applicationId === applicationId).map(strip);
  }

  async update(applicationId: string, id: string, c: { question: string; answer: string; kind: AnnotationKind; embedding: number[]; embeddingModel: string }): Promise<Annotation | null> {
    const a = this.items.get(id);
    if (!a || a.applicationId !== applicationId) return null;
    Object.assign(a, c, { updatedAt: new Date() });
    return strip(a);
  }

  async delete(applicationId: string, id: string): Promise<boolean> {
    const a = this.items.get(id);
    return !!a && a.applicationId === applicationId && this.items.delete(id);
  }

  async answer(applicationId: string, messageId: string): Promise<AnnotatableAnswer | null> {
    for (const [conversationId] of this.conversations?.messagesOf ?? new Map()) {
      const conversation = await this.conversations!.findById(conversationId);
      if (!conversation || conversation.applicationId !== applicationId) continue;
      const messages = await this.conversations!.messages(conversationId);
      const at = messages.findIndex((m) => m.id === messageId && m.role === 'assistant');
      if (at < 0) continue;
      const question = [...messages.slice(0, at)].reverse().find((m) => m.role === 'user')?.content ?? '';
      return { messageId, applicationId, question, answer: messages[at]!.content };
    }
    return null;
  }

  async settings(applicationId: string): Promise<AnnotationSettings> {
    return this.settingsOf.get(applicationId) ?? { ...DEFAULT_ANNOTATION_SETTINGS };
  }

  async saveSettings(applicationId: string, s: AnnotationSettings): Promise<AnnotationSettings> {
    this.settingsOf.set(applicationId, { ...s });
    return { ...s };
  }

  async vectors(applicationId: string): Promise<AnnotationVector[]> {
    return [...this.items.values()].filter((a) => a.applicationId === applicationId).map((a) => ({ id: a.id, answer: a.answer, embedding: [...a.embedding], embeddingModel: a.embeddingModel }));
  }

  async recordReply(annotationId: string, messageId: string, at: Date): Promise<void> {
    this.answeredBy.set(messageId, annotationId);
    const a = this.items.get(annotationId);
    if (a) {
      a.hitCount += 1;
      a.lastHitAt = at;
    }
  }
}

const strip = ({ embedding: _e, embeddingModel: _m, ...a }: Stored): Annotation => ({ ...a });
