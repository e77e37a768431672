import { randomUUID } from 'node:crypto';
import { waitFor } from '../../support/wait-for';
import { HttpChatEngine } from '../../../adapters/clients/http-chat-engine';
import type { ChatEngine } from '../../../core/ai/ports/chat-engine.port';
import { CHAT_TOKENS } from '../../../apps/shared/modules/chat-engine.tokens';
import { startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../../../core/shared/errors';

/**
 * One contract, two adapters: the engine running in-process and the HTTP client of the AI service
 * must behave the same, errors included.
 */
describe.each(['in-process', 'http'] as const)('ChatEngine contract (%s)', (kind) => {
  let stack: TestStack;
  let engine: ChatEngine;
  let applicationId: string;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, engine: 'remote' });
    engine = kind === 'http'
      ? new HttpChatEngine(stack.ai!.listening.url, stack.config.aiServiceToken)
      : stack.ai!.app.container.get<ChatEngine>(CHAT_TOKENS.ChatEngine);
    applicationId = (await userWithApplication(stack.client)).app.id;
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator!.reset());

  it('lists providers and models', async () => {
    const providers = await engine.providers();
    expect(providers.map((p) => p.id)).toEqual(['provider_a', 'provider_b', 'provider_c', 'provider_d']);
    expect((await engine.models('provider_a')).map((m) => m.id)).toContain('gpt-4o-mini');
    await expect(engine.models('nope')).rejects.toBeInstanceOf(ValidationError);
  });

  it('creates a conversation, answers, and keeps the history', async () => {
    const conversation = await engine.createConversation({ applicationId, title: 'Contract' });
    const answer = await engine.sendMessage(conversation.id, { content: 'ping', provider: 'provider_a' });
    expect(answer).toMatchObject({ conversationId: conversation.id, provider: 'provider_a', model: 'gpt-4o-mini', message: { role: 'assistant' } });
    const full = await engine.getConversation(conversation.id);
    expect(full.messages.map((m) => [m.role, m.status])).toEqual([['user', 'complete'], ['assistant', 'complete']]);
    // The answer names the user's message the turn stored.
    expect(answer.userMessageId).toBe(full.messages[0]!.id);
    const page = await engine.listConversations(applicationId, { page: 1, limit: 50 });
    expect(page.data.map((c) => c.id)).toContain(conversation.id);
    expect(page).toMatchObject({ page: 1, limit: 50 });
    expect(page.total).toBe(page.data.length);
  });

  it('streams chunks and a done event whose fullResponse is the chunks joined', async () => {
    const conversation = await engine.createConversation({ applicationId });
    const events = [];
    for await (const event of await engine.streamMessage(conversation.id, { content: 'stream me', provider: 'provider_b' })) events.push(event);
    const done = events.at(-1)!;
    expect(done.type).toBe('done');
    const joined = events.filter((e) => e.type === 'chunk').map((e) => (e as { content: string }).content).join('');
    expect(done.type === 'done' && done.fullResponse).toBe(joined);
    const stored = await engine.getConversation(conversation.id);
    expect(done.type === 'done' && done.userMessageId).toBe(stored.messages.find((m) => m.role === 'user')!.id);
  });

  it('opens a conversation with its first message, in one call, under the id the caller chose', async () => {
    const id = randomUUID();
    const answer = await engine.sendMessage(id, { content: 'first words', provider: 'provider_a', startConversation: { applicationId, title: 'Opened', source: 'api' } });
    expect(answer.conversationId).toBe(id);
    const opened = await engine.getConversation(id);
    expect(opened).toMatchObject({ id, applicationId, title: 'Opened' });
    expect(opened.messages.map((m) => [m.role, m.content === 'first words'])).toEqual([['user', true], ['assistant', false]]);
    expect(answer.userMessageId).toBe(opened.messages[0]!.id);

    const streamed = randomUUID();
    const events = [];
    for await (const event of await engine.streamMessage(streamed, { content: 'stream it', provider: 'provider_b', startConversation: { applicationId } })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'done', conversationId: streamed, userMessageId: (await engine.getConversation(streamed)).messages[0]!.id });
    expect((await engine.getConversation(streamed)).title).toBe('stream it');
  });

  it('opens nothing for a refused first message, and never reuses an id', async () => {
    const id = randomUUID();
    await expect(engine.sendMessage(id, { content: '', provider: 'provider_a', startConversation: { applicationId } })).rejects.toBeInstanceOf(ValidationError);
    await expect(engine.sendMessage(id, { content: 'x', provider: 'provider_a', settings: { temperature: 9 }, startConversation: { applicationId } })).rejects.toBeInstanceOf(ValidationError);
    await expect(engine.sendMessage(id, { content: 'x', provider: 'provider_a', startConversation: { applicationId, source: 'fax' as never } })).rejects.toBeInstanceOf(ValidationError);
    await expect(engine.sendMessage('not-a-uuid', { content: 'x', provider: 'provider_a', startConversation: { applicationId } })).rejects.toBeInstanceOf(ValidationError);
    await expect(engine.sendMessage(id, { content: 'x', provider: 'provider_a', startConversation: { applicationId: randomUUID() } })).rejects.toBeInstanceOf(NotFoundError);
    await expect(engine.getConversation(id)).rejects.toBeInstanceOf(NotFoundError);

    const existing = await engine.createConversation({ applicationId, title: 'Mine' });
    await expect(engine.sendMessage(existing.id, { content: 'x', provider: 'provider_a', startConversation: { applicationId } })).rejects.toBeInstanceOf(ConflictError);
    expect((await engine.getConversation(existing.id)).messages).toEqual([]);
  });

  it('throws the same typed errors', async () => {
    await expect(engine.getConversation('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(engine.createConversation({ applicationId: 'not-a-uuid' })).rejects.toBeInstanceOf(ValidationError);
    const conversation = await engine.createConversation({ applicationId });
    await expect(engine.sendMessage(conversation.id, { content: 'x', provider: 'provider_a', settings: { temperature: 9 } })).rejects.toBeInstanceOf(ValidationError);
    stack.emulator!.behaviour.failStatus = 500;
    const failure = await engine.sendMessage(conversation.id, { content: 'x', provider: 'provider_a' }).catch((e) => e);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure.status).toBe(502);
    const refused = await engine.sendMessage(conversation.id, { content: 'x', provider: 'provider_a', apiKey: 'sk-rejected-key' }).catch((e) => e);
    expect(refused).toMatchObject({ status: 424 });
    expect(refused.message).toMatch(/^provider_a \(OpenAI\) rejected the API key ending in "-key"/);
  });

  it('aborting a stream cancels the provider request and stores the partial answer as interrupted', async () => {
    const conversation = await engine.createConversation({ applicationId });
    stack.emulator!.behaviour.chunkDelayMs = 100;
    const controller = new AbortController();
    const events = await engine.streamMessage(conversation.id, { content: 'please write a long answer for me', provider: 'provider_a' }, controller.signal);
    const iterator = events[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value.type).toBe('chunk');
    controller.abort();
    await iterator.return?.();
    await waitFor(() => stack.emulator!.requests.at(-1)?.aborted === true);
    await waitFor(async () => (await engine.getConversation(conversation.id)).messages[1]?.status === 'interrupted');
  });
});
