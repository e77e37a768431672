import { randomUUID } from 'node:crypto';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import type { ChatAnswer, ChatEngine, ChatMessageRequest } from '../../../core/ai/ports/chat-engine.port';
import type { ApiKey } from '../../../core/api-keys/domain/api-key';
import type { Application } from '../../../core/applications/domain/application';
import type { Conversation } from '../../../core/conversations/domain/conversation';
import type { ChatPolicy, ChatTurn } from '../../../core/conversations/ports/chat-policy.port';
import type { ConversationRepository } from '../../../core/conversations/ports/conversation-repository.port';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import type { PublicCaller } from '../../../core/public-api/domain/public-caller';
import { GetPublicApplicationUseCase } from '../../../core/public-api/use-cases/get-public-application.use-case';
import { LISTED_ORIGIN_TTL_MS, ListedOrigins } from '../../../core/public-api/use-cases/listed-origins';
import { usableApplication } from '../../../core/public-api/use-cases/scoped-application';
import { SendPublicMessageUseCase } from '../../../core/public-api/use-cases/send-public-message.use-case';
import { ForbiddenError, NotFoundError, PaymentRequiredError, ValidationError } from '../../../core/shared/errors';

const OWNER = '11111111-1111-4111-8111-111111111111';
const SHOP = 'https://shop.example.com';

const aKey = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  id: randomUUID(),
  ownerId: OWNER,
  applicationId: null,
  name: 'API key',
  keyPrefix: 'pk_live_',
  keyHint: 'abcd',
  rateLimit: 60,
  requestCount: 0,
  lastUsedAt: null,
  revokedAt: null,
  createdAt: new Date(),
  ...overrides,
});

const anApplication = (overrides: Partial<Application> = {}): Application => ({
  id: randomUUID(),
  ownerId: OWNER,
  name: 'Support Bot',
  description: '',
  slug: 'support-bot',
  themeId: null,
  themeCustomization: {},
  allowedOrigins: [SHOP],
  hostedPageEnabled: false,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...overrides,
});

const caller = (key: ApiKey, more: Partial<PublicCaller> = {}): PublicCaller => ({ key, source: 'api', ...more });

describe('the scope of a public caller', () => {
  it('admits the application of a single-application key and any of its owner\'s for an all-applications key', () => {
    const app = anApplication();
    expect(usableApplication(app, caller(aKey({ applicationId: app.id })))).toBe(app);
    expect(usableApplication(app, caller(aKey()))).toBe(app);
  });

  it.each([
    ['another application of the owner', (app: Application) => [anApplication(), aKey({ applicationId: app.id })] as const],
    ["another owner's application", () => [anApplication({ ownerId: '22222222-2222-4222-8222-222222222222' }), aKey()] as const],
    ['no application at all', () => [null, aKey()] as const],
  ])('refuses %s with 403', (_name, make) => {
    const [target, key] = make(anApplication());
    expect(() => usableApplication(target, caller(key))).toThrow(new ForbiddenError('This API key cannot be used with that application'));
  });

  it('refuses a browser origin the application does not list, and serves the ones it does', () => {
    const app = anApplication();
    expect(() => usableApplication(app, caller(aKey(), { origin: 'https://evil.example.net' }))).toThrow(ForbiddenError);
    expect(usableApplication(app, caller(aKey(), { origin: SHOP }))).toBe(app);
  });

  it('asks an all-applications key which application it means', async () => {
    const applications = new InMemoryApplicationRepository();
    const get = new GetPublicApplicationUseCase({ applications });
    await expect(get.execute({}, caller(aKey()))).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('listed origins', () => {
  it('asks the registry once per origin while the answer is fresh', async () => {
    let now = 0;
    const asked: string[] = [];
    const origins = new ListedOrigins({
      registry: { isListedByAnyApplication: async (o) => (asked.push(o), o === SHOP) },
      clock: { now: () => new Date(now) },
    });
    expect(await origins.isListed(SHOP)).toBe(true);
    expect(await origins.isListed(SHOP)).toBe(true);
    expect(await origins.isListed('https://other.example.com')).toBe(false);
    now += LISTED_ORIGIN_TTL_MS + 1;
    expect(await origins.isListed(SHOP)).toBe(true);
    expect(asked).toEqual([SHOP, 'https://other.example.com', SHOP]);
  });

  it.each([
    ['an opaque origin', 'null'],
    ['a URL with a path', 'https://shop.example.com/'],
    ['a script URL', 'javascript:alert(1)'],
    ['an origin of 300+ characters', `https://${'a'.repeat(300)}.com`],
  ])('never lists %s', async (_name, origin) => {
    const origins = new ListedOrigins({ registry: { isListedByAnyApplication: async () => true }, clock: { now: () => new Date() } });
    expect(await origins.isListed(origin)).toBe(false);
  });
});

/** A chat engine and conversation store in memory, recording what the public path asks of them. */
function aChatSystem(policy?: ChatPolicy) {
  const conversations = new Map<string, Conversation>();
  const created: unknown[] = [];
  let creationError: Error | undefined;
  const engine = {
    // A first message opens its conversation under the id it is sent to, as the real engines do.
    async sendMessage(conversationId: string, request: ChatMessageRequest): Promise<ChatAnswer> {
      const start = request.startConversation;
      if (start) {
        if (creationError) throw creationError;
        created.push({ id: conversationId, ...start });
        conversations.set(conversationId, {
          id: conversationId, applicationId: start.applicationId, title: start.title ?? '', status: 'active', source: start.source ?? 'dashboard',
          apiKeyId: start.apiKeyId ?? null, configVersionId: start.configVersionId ?? null, createdAt: new Date(), updatedAt: new Date(),
        });
      }
      return {
        conversationId,
        message: { id: randomUUID(), role: 'assistant', content: `echo: ${request.content}`, createdAt: new Date().toISOString() },
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        provider: 'provider_a',
        model: 'model-a',
        latencyMs: 5,
      };
    },
  } as unknown as ChatEngine;
  const repository = {
    findForTurn: async (id: string) => {
      const conversation = conversations.get(id);
      return conversation ? { conversation, ownerId: 'owner' } : null;
    },
  } as unknown as ConversationRepository;
  const applications = new InMemoryApplicationRepository();
  const runner = new ChatTurnRunner({ engine, policies: policy ? [policy] : [] });
  return {
    applications,
    created,
    failCreation: (error: Error) => void (creationError = error),
    send: new SendPublicMessageUseCase({ applications, conversations: repository, runner }),
  };
}

describe('public chat', () => {
  it("runs the turn on the application owner's account, with the caller's source, in a conversation tied to the key", async () => {
    const turns: ChatTurn[] = [];
    const s = aChatSystem({ name: 'recorder', prepare: async (turn) => void turns.push(turn) });
    const app = await s.applications.create({ ownerId: OWNER, name: 'Bot', description: '', slug: 'bot-app', allowedOrigins: [] });
    const key = aKey({ applicationId: app.id });
    const answer = await s.send.execute({ message: 'Hello there', applicationId: app.id }, caller(key, { source: 'widget' }));
    expect(answer).toEqual({ conversationId: expect.any(String), message: expect.objectContaining({ content: 'echo: Hello there' }), usage: expect.any(Object), provider: 'provider_a', model: 'model-a' });
    // Created by the engine with the first message, under the id the turn was given.
    expect(s.created).toEqual([{ id: answer.conversationId, applicationId: app.id, title: 'Hello there', source: 'widget', apiKeyId: key.id, configVersionId: null }]);
    expect(turns).toHaveLength(1);
    // The policies decide on the conversation still to be created (a draft under its new id).
    expect(turns[0]).toMatchObject({ ownerId: OWNER, source: 'widget', content: 'Hello there', conversation: { id: answer.conversationId, applicationId: app.id, apiKeyId: key.id } });
  });

  it('lets a policy refuse the turn (the plan\'s quota) before the engine is asked, creating no conversation', async () => {
    const s = aChatSystem({ name: 'quota', prepare: async () => { throw new PaymentRequiredError('Quota exhausted'); } });
    const app = await s.applications.create({ ownerId: OWNER, name: 'Bot', description: '', slug: 'bot-app', allowedOrigins: [] });
    await expect(s.send.execute({ message: 'hi', applicationId: app.id }, caller(aKey()))).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(s.created).toEqual([]);
  });

  it('settles what the policies held when the conversation cannot be created', async () => {
    const settled: unknown[] = [];
    const s = aChatSystem({ name: 'quota', prepare: async () => undefined, settle: async (_turn, _plan, outcome) => void settled.push(outcome) });
    const app = await s.applications.create({ ownerId: OWNER, name: 'Bot', description: '', slug: 'bot-app', allowedOrigins: [] });
    const down = new Error('AI service unreachable');
    s.failCreation(down);
    await expect(s.send.execute({ message: 'hi', applicationId: app.id }, caller(aKey()))).rejects.toBe(down);
    expect(settled).toEqual([{ ok: false, error: down }]);
  });

  it('continues only a conversation this very key started', async () => {
    const s = aChatSystem();
    const app = await s.applications.create({ ownerId: OWNER, name: 'Bot', description: '', slug: 'bot-app', allowedOrigins: [] });
    const key = aKey();
    const first = await s.send.execute({ message: 'one', applicationId: app.id }, caller(key));
    const again = await s.send.execute({ message: 'two', applicationId: app.id, conversationId: first.conversationId }, caller(key));
    expect(again.conversationId).toBe(first.conversationId);
    await expect(s.send.execute({ message: 'three', applicationId: app.id, conversationId: first.conversationId }, caller(aKey()))).rejects.toBeInstanceOf(NotFoundError);
  });
});
