import type { ChatAnswer, ChatStreamEvent, ConversationStart } from '../../ai/ports/chat-engine.port';
import { ATTR } from '../../traces/domain/attributes';
import type { Tracer } from '../../traces/use-cases/tracer';
import type { ProviderId } from '../../ai/domain/provider-id';
import { titleFrom, UNTITLED } from '../../conversations/domain/conversation';
import type { ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { BegunTurn, ConversationRepository, TurnAnnouncement } from '../../conversations/ports/conversation-repository.port';
import { embedTexts } from '../../knowledge/use-cases/embed-texts';
import type { Embedder } from '../../knowledge/ports/embedder.port';
import type { Cache } from '../../shared/cache.port';
import type { Clock } from '../../shared/clock.port';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { ANNOTATION_REPLY_MODEL, ANNOTATION_REPLY_PROVIDER, type AnnotationSettings } from '../domain/annotation';
import type { AnnotationRepository, AnnotationVector } from '../ports/annotation-repository.port';
import { annotationCacheKey } from './annotations.use-cases';

/** What annotation replies hold of one application between changes: its settings and, when on, its vectors. */
interface Loaded {
  settings: AnnotationSettings;
  vectors: AnnotationVector[];
}

/** The annotation closest to a question, and how close. */
export interface AnnotationMatch {
  annotationId: string;
  answer: string;
  similarity: number;
}

/** An answer served from an annotation: the stored answer and its match (for the turn's trace). */
export interface AnnotatedAnswer {
  answer: ChatAnswer;
  match: AnnotationMatch;
}

const MAX_CONTENT = 100_000;

/**
 * Annotation replies (docs/logs.md): with replies on for the turn's application, a question whose embedding is
 * at least the owner's threshold close (cosine) to an annotated question is answered with the annotated answer,
 * without calling the model. The answer is stored like any answer (provider `annotation`, no tokens, the
 * annotation's id in the message's metadata), with the turn's events, and counted in analytics apart from
 * model answers. Studio debug turns (a draft) always go to the model.
 */
export class AnnotationReplier {
  constructor(
    private readonly deps: {
      annotations: AnnotationRepository;
      conversations: ConversationRepository;
      embedder: Embedder;
      cache: Cache;
      clock: Clock;
      /** Counts a served answer (analytics), given the turn. */
      count?: (turn: ChatTurn) => void;
      /** Traces the served turn (docs/observability.md): its root span and an `annotation.reply` span naming the annotation. */
      tracer?: Pick<Tracer, 'startTurn'>;
    },
  ) {}

  /** The closest annotation at or above the threshold, or null (replies off, none close enough). */
  async match(applicationId: string, question: string): Promise<AnnotationMatch | null> {
    const loaded = await this.deps.cache.getOrLoad<Loaded>(annotationCacheKey(applicationId), async () => {
      const settings = await this.deps.annotations.settings(applicationId);
      return { settings, vectors: settings.repliesEnabled ? await this.deps.annotations.vectors(applicationId) : [] };
    });
    if (!loaded.settings.repliesEnabled || loaded.vectors.length === 0 || question.trim() === '') return null;
    const [vector] = await embedTexts(this.deps.embedder, [question]);
    let best: AnnotationMatch | null = null;
    for (const candidate of loaded.vectors) {
      if (candidate.embeddingModel !== this.deps.embedder.model || candidate.embedding.length !== vector!.length) continue;
      const similarity = dot(vector!, candidate.embedding);
      if (similarity >= loaded.settings.threshold && (!best || similarity > best.similarity)) {
        best = { annotationId: candidate.id, answer: candidate.answer, similarity: Math.min(1, similarity) };
      }
    }
    return best;
  }

  /**
   * Serves the turn from an annotation when one matches: stores the question (opening the conversation when
   * `opening` says so) and the annotated answer, and answers as the engine would. Null: the model answers.
   */
  async reply(turn: ChatTurn, opening: ConversationStart | undefined, announce: boolean): Promise<AnnotatedAnswer | null> {
    if (turn.draft || typeof turn.content !== 'string' || turn.content.length > MAX_CONTENT) return null;
    const match = await this.match(turn.application.id, turn.content);
    if (!match) return null;
    const started = performance.now();
    // The turn's trace, as the policies would have started it, with the annotation that answered in place of a model round.
    const trace = this.deps.tracer?.startTurn('chat.turn', {
      [ATTR.operationName]: 'chat',
      [ATTR.channel]: turn.source,
      [ATTR.conversationId]: turn.conversation.id,
      [ATTR.applicationId]: turn.application.id,
      [ATTR.providerName]: ANNOTATION_REPLY_PROVIDER,
      [ATTR.requestModel]: ANNOTATION_REPLY_MODEL,
    });
    const span = trace?.span('annotation.reply', { [ATTR.annotationId]: match.annotationId, [ATTR.annotationScore]: match.similarity });
    const announcement: TurnAnnouncement | undefined = announce ? { ownerId: turn.ownerId, source: turn.source } : undefined;
    let begun: BegunTurn | null;
    if (opening) {
      begun = await this.deps.conversations.beginFirstTurn(
        {
          id: turn.conversation.id,
          applicationId: opening.applicationId,
          title: opening.title?.trim() || titleFrom(turn.content),
          source: opening.source ?? turn.source,
          apiKeyId: opening.apiKeyId ?? null,
          configVersionId: opening.configVersionId ?? null,
        },
        turn.content,
        announcement,
      );
    } else {
      begun = await this.deps.conversations.beginTurn(turn.conversation.id, turn.content, 1, 1, announcement, { untitled: UNTITLED, title: titleFrom(turn.content) });
    }
    if (!begun) throw new NotFoundError('Conversation');
    if (begun.conversation.status === 'archived') throw ValidationError.field('conversationId', 'The conversation is archived');
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const latencyMs = Math.round(performance.now() - started);
    const message = await this.deps.conversations.addMessage({
      conversationId: begun.conversation.id,
      role: 'assistant',
      content: match.answer,
      status: 'complete',
      provider: ANNOTATION_REPLY_PROVIDER,
      model: ANNOTATION_REPLY_MODEL,
      usage,
      latencyMs,
      configVersionId: turn.conversation.configVersionId,
      ...(announcement ? { announce: announcement } : {}),
    });
    await this.deps.annotations.recordReply(match.annotationId, message.id, this.deps.clock.now());
    this.deps.count?.(turn);
    if (trace) {
      span?.end();
      trace.root.set(ATTR.messageId, message.id).set(ATTR.inputTokens, 0).set(ATTR.outputTokens, 0);
      trace.keyTo({ conversationId: begun.conversation.id, applicationId: turn.application.id, messageId: message.id });
      trace.finish();
    }
    return {
      match,
      answer: {
        conversationId: begun.conversation.id,
        ...(begun.messageId ? { userMessageId: begun.messageId } : {}),
        message: { id: message.id, role: 'assistant', content: message.content, createdAt: message.createdAt.toISOString() },
        usage,
        // Not a model provider: the answer came from the owner's annotation (docs/logs.md).
        provider: ANNOTATION_REPLY_PROVIDER as ProviderId,
        model: ANNOTATION_REPLY_MODEL,
        latencyMs,
      },
    };
  }
}

/** A served annotation answer as a stream: the whole answer in one chunk, then `done`. */
export async function* annotatedStream(served: AnnotatedAnswer): AsyncIterable<ChatStreamEvent> {
  const a = served.answer;
  yield { type: 'chunk', content: a.message.content };
  yield {
    type: 'done',
    fullResponse: a.message.content,
    conversationId: a.conversationId,
    ...(a.userMessageId ? { userMessageId: a.userMessageId } : {}),
    messageId: a.message.id,
    usage: a.usage,
    provider: a.provider,
    model: a.model,
    latencyMs: a.latencyMs,
  };
}

function dot(a: number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
