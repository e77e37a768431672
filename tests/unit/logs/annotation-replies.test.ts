import { randomUUID } from 'node:crypto';
import { LocalHashingEmbedder } from '../../../adapters/embedders/local-hashing.embedder';
import { MemoryCache } from '../../../adapters/cache/memory.cache';
import { InMemoryAnnotationRepository } from '../../../adapters/persistence/in-memory/in-memory-annotation.repository';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryConversationRepository } from '../../../adapters/persistence/in-memory/in-memory-conversation.repository';
import type { ChatEngine, ChatStreamEvent } from '../../../core/ai/ports/chat-engine.port';
import type { Conversation } from '../../../core/conversations/domain/conversation';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { annotationsCsv, toAnnotationView } from '../../../core/logs/domain/annotation';
import { AnnotationReplier } from '../../../core/logs/use-cases/annotation-replies';
import { AnnotationSettingsUseCase, CreateAnnotationUseCase } from '../../../core/logs/use-cases/annotations.use-cases';
import { parseLogFilter } from '../../../core/logs/use-cases/logs.use-cases';
import type { Actor } from '../../../core/shared/actor';
import { ValidationError } from '../../../core/shared/errors';

const OWNER: Actor = { userId: randomUUID(), role: 'user' } as Actor;

async function aSystem() {
  const applications = new InMemoryApplicationRepository();
  const app = await applications.create({ ownerId: OWNER.userId, name: 'Bot', description: '', slug: 'bot-app', allowedOrigins: [] });
  const conversations = new InMemoryConversationRepository(applications);
  const annotations = new InMemoryAnnotationRepository(conversations);
  const embedder = new LocalHashingEmbedder();
  const cache = new MemoryCache({ ttlMs: 60_000 });
  const counted: string[] = [];
  const replier = new AnnotationReplier({ annotations, conversations, embedder, cache, clock: { now: () => new Date() }, count: (turn) => counted.push(turn.source) });
  const modelCalls: string[] = [];
  // The model: answers every turn it is asked, and says so.
  const engine = {
    async sendMessage(conversationId: string, request: { content: string }) {
      modelCalls.push(request.content);
      return { conversationId, message: { id: randomUUID(), role: 'assistant', content: 'from the model', createdAt: new Date().toISOString() }, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, provider: 'provider_a', model: 'm', latencyMs: 1 };
    },
  } as unknown as ChatEngine;
  const runner = new ChatTurnRunner({ engine, policies: [], annotations: replier });
  const deps = { applications, annotations, embedder, cache };
  const conversation = await conversations.create({ applicationId: app.id, title: 'New conversation', source: 'widget' });
  const turn = (content: string, c: Conversation = conversation) => ({ ownerId: OWNER.userId, application: app, conversation: c, content, source: 'widget' as const });
  return { app, conversations, annotations, runner, deps, turn, conversation, modelCalls, counted };
}

describe('annotation replies', () => {
  it('answers a close question from the annotation without the model when replies are on, and an unrelated one from the model', async () => {
    const s = await aSystem();
    const created = await new CreateAnnotationUseCase(s.deps).execute(s.app.id, { question: 'How do I reset my password?', answer: 'Use Settings, then Security.' }, OWNER);
    expect(created.kind).toBe('manual');

    // Off by default: the model answers.
    expect((await s.runner.send(s.turn('How do I reset my password?'), { content: '' })).message.content).toBe('from the model');
    await new AnnotationSettingsUseCase(s.deps).save(s.app.id, { repliesEnabled: true, threshold: 0.85 }, OWNER);

    const served = await s.runner.send(s.turn('how do I reset my password'), { content: '' });
    expect(served).toMatchObject({ message: { content: 'Use Settings, then Security.' }, provider: 'annotation', usage: { totalTokens: 0 } });
    expect(s.annotations.answeredBy.get(served.message.id)).toBe(created.id);
    const stored = await s.conversations.messages(s.conversation.id);
    expect(stored.slice(-2).map((m) => [m.role, m.content])).toEqual([['user', 'how do I reset my password'], ['assistant', 'Use Settings, then Security.']]);

    const events: ChatStreamEvent[] = [];
    for await (const e of await s.runner.stream(s.turn('How do I reset my password?'), { content: '' })) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['chunk', 'done']);
    expect(s.modelCalls).toEqual(['How do I reset my password?']);
    expect(s.counted).toEqual(['widget', 'widget']);

    expect((await s.runner.send(s.turn('What are your opening hours on Sunday?'), { content: '' })).message.content).toBe('from the model');
    expect(s.modelCalls).toHaveLength(2);
    expect((await s.annotations.find(s.app.id, created.id))?.hitCount).toBe(2);
  });

  it('leaves a studio debug turn (a draft) to the model', async () => {
    const s = await aSystem();
    await new CreateAnnotationUseCase(s.deps).execute(s.app.id, { question: 'Hello there', answer: 'Annotated hello' }, OWNER);
    await new AnnotationSettingsUseCase(s.deps).save(s.app.id, { repliesEnabled: true, threshold: 0.5 }, OWNER);
    const answer = await s.runner.send({ ...s.turn('Hello there'), draft: { provider: 'provider_a', model: 'm', settings: {} } }, { content: '' });
    expect(answer.message.content).toBe('from the model');
  });
});

describe('log filters and annotation exports', () => {
  it('reads the filters and refuses bad ones with the field named', () => {
    expect(parseLogFilter({ channel: 'widget,api', rating: 'bad', errors: 'true', tools: 'false', q: ' refund ', from: '2026-01-01' })).toEqual({
      channels: ['widget', 'api'],
      rating: 'bad',
      errors: true,
      tools: false,
      search: 'refund',
      from: new Date('2026-01-01'),
    });
    for (const [query, field] of [[{ channel: 'fax' }, 'channel'], [{ rating: 'meh' }, 'rating'], [{ errors: 'yes' }, 'errors'], [{ from: 'soon' }, 'from'], [{ q: ['a', 'b'] }, 'q'], [{ from: '2026-02-01', to: '2026-01-01' }, 'from']] as const) {
      try {
        parseLogFilter(query as Record<string, unknown>);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).details[0]!.path).toBe(field);
      }
    }
  });

  it('writes CSV a spreadsheet reads as text, quoting what needs it', () => {
    const at = new Date('2026-01-05T10:00:00.000Z');
    const csv = annotationsCsv([toAnnotationView({ id: 'a', applicationId: 'x', messageId: null, kind: 'manual', question: '=HYPERLINK("x")', answer: 'Line one,\nline "two"', createdBy: null, hitCount: 0, lastHitAt: null, createdAt: at, updatedAt: at })]);
    expect(csv.split('\r\n')[1]).toBe(`a,manual,"'=HYPERLINK(""x"")","Line one,\nline ""two""",,0,2026-01-05T10:00:00.000Z,2026-01-05T10:00:00.000Z`);
  });
});
