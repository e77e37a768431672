import { randomUUID } from 'node:crypto';
import type { ChatStreamEvent } from '../../../core/ai/ports/chat-engine.port';
import type { ChatRequest, ChatResult, LlmProvider, StreamPart } from '../../../core/ai/ports/llm-provider.port';
import { SendChatMessageUseCase } from '../../../core/ai/use-cases/send-chat-message.use-case';
import type { ChatEngineDeps } from '../../../core/ai/use-cases/start-chat';
import { StreamChatMessageUseCase } from '../../../core/ai/use-cases/stream-chat-message.use-case';
import type { Conversation, Message } from '../../../core/conversations/domain/conversation';
import type { BegunTurn, ConversationRepository, NewConversation, NewMessage, Turn } from '../../../core/conversations/ports/conversation-repository.port';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../../../core/shared/errors';

/**
 * A turn asks its provider while its user message is being stored, when this process already holds the
 * conversation's history; the stored history has the last word.
 */

class Deferred<T> {
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  readonly promise = new Promise<T>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function aConversation(overrides: Partial<Conversation> = {}): Conversation {
  const now = new Date();
  return { id: randomUUID(), applicationId: randomUUID(), title: 'Chat', status: 'active', source: 'dashboard', apiKeyId: null, configVersionId: null, createdAt: now, updatedAt: now, ...overrides };
}

/** Conversations in memory, with the turn's statement held until the test lets it finish. */
class InMemoryConversations implements ConversationRepository {
  known: Turn[] | undefined;
  readonly begun = new Deferred<BegunTurn | null>();
  readonly created = new Deferred<void>();
  readonly log: string[] = [];
  readonly stored: NewMessage[] = [];

  async create(c: NewConversation): Promise<Conversation> {
    await this.created.promise;
    this.log.push('create');
    return aConversation({ id: c.id, applicationId: c.applicationId });
  }
  async beginTurn(): Promise<BegunTurn | null> {
    const begun = await this.begun.promise;
    this.log.push('user message stored');
    return begun;
  }
  knownHistory(): Turn[] | undefined {
    return this.known;
  }
  async addMessage(m: NewMessage): Promise<Message> {
    this.log.push(`answer stored (${m.status})`);
    this.stored.push(m);
    return { id: randomUUID(), conversationId: m.conversationId, role: m.role, content: m.content, status: m.status, provider: m.provider ?? null, model: m.model ?? null, usage: m.usage ?? null, latencyMs: m.latencyMs ?? null, error: m.error ?? null, configVersionId: null, sources: null, createdAt: new Date() } as Message;
  }
  findById = notUsed;
  findWithOwner = notUsed;
  findForTurn = notUsed;
  listByApplication = notUsed;
  listByOwner = notUsed;
  archive = notUsed;
  messages = notUsed;
}

async function notUsed(): Promise<never> {
  throw new Error('not used by a turn');
}

interface Asked {
  request: ChatRequest;
  answer: Deferred<ChatResult>;
  parts: StreamPart[];
}

/** A provider that records each request and answers when told (or streams what it is given at once). */
class RecordingProvider implements LlmProvider {
  readonly id = 'provider_a' as const;
  readonly asked: Asked[] = [];
  streamParts: StreamPart[] = [{ type: 'delta', text: 'Hel' }, { type: 'delta', text: 'lo' }];

  chat(request: ChatRequest): Promise<ChatResult> {
    const asked: Asked = { request, answer: new Deferred<ChatResult>(), parts: [] };
    this.asked.push(asked);
    return asked.answer.promise;
  }
  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    this.asked.push({ request, answer: new Deferred<ChatResult>(), parts: this.streamParts });
    for (const part of this.streamParts) {
      if (request.signal?.aborted) throw request.signal.reason;
      yield part;
    }
  }
  async listModels(): Promise<string[]> {
    return [];
  }
}

const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };

function setUp() {
  const conversations = new InMemoryConversations();
  const provider = new RecordingProvider();
  const deps: ChatEngineDeps = { conversations, providers: { get: () => provider, platformKey: () => 'sk-platform' }, clock: { now: () => new Date() } };
  return { conversations, provider, send: new SendChatMessageUseCase(deps), stream: new StreamChatMessageUseCase(deps) };
}

const history: Turn[] = [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello!' },
];

async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const all: ChatStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('the provider call of a chat turn', () => {
  it('starts while the user message is being stored when this process holds the history, and is kept when the stored history agrees', async () => {
    const { conversations, provider, send } = setUp();
    conversations.known = history;
    const conversation = aConversation();
    const answer = send.execute(conversation.id, { content: 'And now?', provider: 'provider_a' });
    await tick();
    expect(conversations.log).toEqual([]); // the statement has not finished
    expect(provider.asked).toHaveLength(1);
    expect(provider.asked[0]!.request.messages).toEqual([...history, { role: 'user', content: 'And now?' }]);

    conversations.begun.resolve({ conversation, history });
    await tick();
    provider.asked[0]!.answer.resolve({ content: 'Now this.', usage, model: 'gpt-4o-mini' });
    expect((await answer).message.content).toBe('Now this.');
    expect(provider.asked).toHaveLength(1);
    expect(provider.asked[0]!.request.signal!.aborted).toBe(false);
    expect(conversations.log).toEqual(['user message stored', 'answer stored (complete)']);
  });

  it('is cancelled and made again on the stored history when that differs from the one held', async () => {
    const { conversations, provider, send } = setUp();
    conversations.known = history.slice(0, 1); // another process has written since
    const conversation = aConversation();
    const answer = send.execute(conversation.id, { content: 'And now?', provider: 'provider_a' });
    await tick();
    conversations.begun.resolve({ conversation, history });
    await tick();
    expect(provider.asked).toHaveLength(2);
    expect(provider.asked[0]!.request.signal!.aborted).toBe(true);
    expect(provider.asked[1]!.request.messages).toEqual([...history, { role: 'user', content: 'And now?' }]);
    provider.asked[0]!.answer.reject(new Error('aborted')); // nobody hears of the dropped call
    provider.asked[1]!.answer.resolve({ content: 'Right answer', usage, model: 'gpt-4o-mini' });
    expect((await answer).message.content).toBe('Right answer');
    expect(conversations.stored.map((m) => m.content)).toEqual(['Right answer']);
  });

  it('waits for the stored history when this process holds none', async () => {
    const { conversations, provider, send } = setUp();
    const conversation = aConversation();
    const answer = send.execute(conversation.id, { content: 'Hello', provider: 'provider_a' });
    await tick();
    expect(provider.asked).toHaveLength(0);
    conversations.begun.resolve({ conversation, history: [] });
    await tick();
    expect(provider.asked).toHaveLength(1);
    provider.asked[0]!.answer.resolve({ content: 'Hi', usage, model: 'gpt-4o-mini' });
    await answer;
  });

  it('is cancelled when the conversation is gone or archived, and the turn fails as before', async () => {
    const gone = setUp();
    gone.conversations.known = history;
    const missing = gone.send.execute(randomUUID(), { content: 'Hello?', provider: 'provider_a' });
    await tick();
    gone.conversations.begun.resolve(null);
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    expect(gone.provider.asked[0]!.request.signal!.aborted).toBe(true);

    const archived = setUp();
    archived.conversations.known = history;
    const conversation = aConversation({ status: 'archived' });
    const refused = archived.stream.execute(conversation.id, { content: 'Hello?', provider: 'provider_a' });
    await tick();
    archived.conversations.begun.resolve({ conversation, history: [] });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    expect(archived.provider.asked[0]!.request.signal!.aborted).toBe(true);
    expect(archived.conversations.stored).toEqual([]);
  });

  it('stores a failed answer after the user message even when the provider failed first', async () => {
    const { conversations, provider, send } = setUp();
    conversations.known = history;
    const conversation = aConversation();
    const answer = send.execute(conversation.id, { content: 'And now?', provider: 'provider_a' });
    await tick();
    provider.asked[0]!.answer.reject(new UpstreamError('provider_a is unavailable', 502));
    await tick();
    expect(conversations.log).toEqual([]);
    conversations.begun.resolve({ conversation, history });
    await expect(answer).rejects.toBeInstanceOf(UpstreamError);
    expect(conversations.log).toEqual(['user message stored', 'answer stored (failed)']);
  });

  it('streams nothing before the user message is stored, then the early call\'s chunks', async () => {
    const { conversations, provider, stream } = setUp();
    conversations.known = history;
    const conversation = aConversation();
    let opened = false;
    const events = stream.execute(conversation.id, { content: 'And now?', provider: 'provider_a' }).then((e) => {
      opened = true;
      return e;
    });
    await tick();
    expect(provider.asked).toHaveLength(1);
    expect(opened).toBe(false);
    conversations.begun.resolve({ conversation, history });
    const all = await collect(await events);
    expect(all.filter((e) => e.type === 'chunk').map((e) => (e as { content: string }).content)).toEqual(['Hel', 'lo']);
    expect(all.at(-1)).toMatchObject({ type: 'done', fullResponse: 'Hello' });
    expect(provider.asked).toHaveLength(1);
    expect(conversations.log).toEqual(['user message stored', 'answer stored (complete)']);
  });

  it('drops an early stream whose history was wrong and streams the one made on the stored history', async () => {
    const { conversations, provider, stream } = setUp();
    conversations.known = [];
    const conversation = aConversation();
    const events = stream.execute(conversation.id, { content: 'And now?', provider: 'provider_a' });
    await tick();
    provider.streamParts = [{ type: 'delta', text: 'In context' }];
    conversations.begun.resolve({ conversation, history });
    const all = await collect(await events);
    expect(provider.asked).toHaveLength(2);
    expect(provider.asked[0]!.request.signal!.aborted).toBe(true);
    expect(all.at(-1)).toMatchObject({ type: 'done', fullResponse: 'In context' });
  });

  it('asks at once for the first message of a new conversation, and cancels if its id is taken', async () => {
    const { conversations, provider, send } = setUp();
    const id = randomUUID();
    const applicationId = randomUUID();
    const opening = { id, applicationId, title: 'New conversation', source: 'api' as const };
    const answer = send.execute(id, { content: 'First', provider: 'provider_a', startConversation: opening }, undefined, opening);
    await tick();
    expect(provider.asked).toHaveLength(1);
    expect(provider.asked[0]!.request.messages).toEqual([{ role: 'user', content: 'First' }]);
    conversations.created.reject(new ConflictError('That conversation id is taken'));
    await expect(answer).rejects.toBeInstanceOf(ConflictError);
    expect(provider.asked[0]!.request.signal!.aborted).toBe(true);
  });
});
