import { randomBytes, randomUUID } from 'node:crypto';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import { InMemorySubscriptionRepository } from '../../../adapters/persistence/billing/in-memory-subscription.repository';
import { InMemoryUsageLedger } from '../../../adapters/persistence/billing/in-memory-usage-ledger';
import { InMemoryProviderKeyRepository } from '../../../adapters/persistence/provider-keys/in-memory-provider-key.repository';
import type { ChatAnswer, ChatEngine, ChatMessageRequest, TurnTools } from '../../../core/ai/ports/chat-engine.port';
import type { Tool } from '../../../core/tools/domain/tool';
import type { Application } from '../../../core/applications/domain/application';
import { PlanCatalog, type PlanTier, type SubscriptionStatus } from '../../../core/billing/domain/plans';
import { KeysAndQuotaPolicy } from '../../../core/billing/use-cases/keys-and-quota.policy';
import { currentPlan } from '../../../core/billing/use-cases/current-plan';
import type { Conversation } from '../../../core/conversations/domain/conversation';
import type { ChatPolicy } from '../../../core/conversations/ports/chat-policy.port';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { providerKeyAssociatedData } from '../../../core/provider-keys/domain/provider-key';
import { PaymentRequiredError, UpstreamError } from '../../../core/shared/errors';

const OWN_KEY = 'sk-own-key-of-the-owner-1234';

/** An engine that answers every message with `tokens` total tokens, or fails when told to. */
function fakeEngine(tokens = 100) {
  const requests: ChatMessageRequest[] = [];
  const engine = {
    failNext: false,
    tokens,
    requests,
    /** Runs while the call is under way (to read the counters the turn holds). */
    during: undefined as undefined | (() => Promise<void>),
    async sendMessage(conversationId: string, request: ChatMessageRequest): Promise<ChatAnswer> {
      requests.push(request);
      await engine.during?.();
      if (engine.failNext) {
        engine.failNext = false;
        throw new UpstreamError('provider_a failed (500)');
      }
      const usage = { promptTokens: engine.tokens - 10, completionTokens: 10, totalTokens: engine.tokens };
      return {
        conversationId,
        message: { id: randomUUID(), role: 'assistant', content: 'Hello', createdAt: new Date().toISOString() },
        usage,
        provider: 'provider_a',
        model: 'gpt-4o-mini',
        latencyMs: 5,
      };
    },
  };
  return engine;
}

function aWorld(options: { policiesAfter?: ChatPolicy[]; tools?: TurnTools; admin?: boolean; payments?: boolean } = {}) {
  const ownerId = randomUUID();
  const subscriptions = new InMemorySubscriptionRepository(new Map([[ownerId, new Date('2026-01-10T00:00:00Z')]]));
  const keys = new InMemoryProviderKeyRepository();
  const usage = new InMemoryUsageLedger();
  const secretBox = new AesGcmSecretBox({ key: randomBytes(32).toString('hex') });
  let now = new Date('2026-03-01T12:00:00Z');
  const clock = { now: () => now };
  const engine = fakeEngine();
  const plans = new PlanCatalog();
  const admins = { isAdmin: async (id: string) => options.admin === true && id === ownerId };
  const policy = new KeysAndQuotaPolicy({ subscriptions, keys, usage, secretBox, clock, plans, admins, payments: options.payments });
  const runner = new ChatTurnRunner({ engine: engine as unknown as ChatEngine, policies: [policy, ...(options.policiesAfter ?? [])], ...(options.tools ? { tools: async () => options.tools } : {}) });
  const application = { id: randomUUID(), ownerId } as Application;
  const conversation = { id: randomUUID(), applicationId: application.id, configVersionId: null } as Conversation;
  const deps = { subscriptions, clock, plans };
  return {
    ownerId,
    engine,
    keys,
    usage,
    deps,
    send: (request: Partial<ChatMessageRequest> = {}) =>
      runner.send({ ownerId, application, conversation, content: 'Hello there', source: 'dashboard' }, { content: 'Hello there', ...request }),
    onPlan: (plan: PlanTier, status: SubscriptionStatus = 'active') => subscriptions.change(ownerId, { plan, status, startedAt: now }),
    saveOwnKey: async (provider: 'provider_a' | 'provider_b' = 'provider_a', raw = OWN_KEY) =>
      keys.save({ userId: ownerId, provider, sealedKey: secretBox.seal(raw, providerKeyAssociatedData(ownerId, provider)), keyHint: raw.slice(-4) }, now),
    counters: async () => usage.current(ownerId, (await currentPlan(deps, ownerId)).period),
    /** Puts `tokens` platform tokens on this period's counters, as earlier chats would have. */
    spend: async (tokens: number) => {
      const { period } = await currentPlan(deps, ownerId);
      await usage.reserve({ userId: ownerId, period, tokens: 0, tokenLimit: null, messageLimit: null });
      await usage.settle({ userId: ownerId, period, reservedTokens: 0, usedTokens: tokens, ok: true, ownKey: false, includedTokens: null });
    },
    moveClock: (iso: string) => (now = new Date(iso)),
  };
}

describe('the keys-and-quota chat policy', () => {
  describe('with an own key for the provider', () => {
    it('sends the decrypted own key, bypasses the quota and records when the key was used', async () => {
      const w = aWorld();
      await w.saveOwnKey();
      const answer = await w.send();
      expect(answer.usage.totalTokens).toBe(100);
      expect(w.engine.requests[0]!.apiKey).toBe(OWN_KEY);
      expect(await w.counters()).toMatchObject({ tokensUsed: 0, ownKeyTokens: 100, overageTokens: 0, messagesUsed: 1, tokensReserved: 0 });
      expect((await w.keys.find(w.ownerId, 'provider_a'))!.lastUsedAt).toEqual(new Date('2026-03-01T12:00:00Z'));
    });

    it('uses the key of the provider the turn asks for, and only that one', async () => {
      const w = aWorld();
      await w.saveOwnKey('provider_b', 'sk-ant-own-key-5678');
      await w.onPlan('starter');
      await w.send({ provider: 'provider_b' });
      await w.send({ provider: 'provider_a' });
      expect(w.engine.requests.map((r) => r.apiKey)).toEqual(['sk-ant-own-key-5678', undefined]);
    });

    it('records no overage on a paid plan, however much is used', async () => {
      const w = aWorld();
      await w.onPlan('starter');
      await w.spend(100_000);
      await w.saveOwnKey();
      await w.send();
      expect(await w.counters()).toMatchObject({ tokensUsed: 100_000, overageTokens: 0, ownKeyTokens: 100 });
    });

    it('falls back to the plan when the key is switched off', async () => {
      const w = aWorld();
      await w.saveOwnKey();
      w.keys.keys.get(`${w.ownerId}:provider_a`)!.isActive = false;
      await expect(w.send()).rejects.toBeInstanceOf(PaymentRequiredError);
    });

    it('refuses a tampered key with a 409 instead of answering on the platform key', async () => {
      const w = aWorld();
      await w.onPlan('pro');
      await w.saveOwnKey();
      const row = w.keys.keys.get(`${w.ownerId}:provider_a`)!;
      row.sealedKey = row.sealedKey.slice(0, -3) + (row.sealedKey.endsWith('AAA') ? 'BBB' : 'AAA');
      await expect(w.send()).rejects.toThrow(/failed its integrity check/);
      expect(w.engine.requests).toEqual([]);
      expect(await w.counters()).toMatchObject({ messagesUsed: 0 });
    });
  });

  describe('on the Free plan without an own key', () => {
    it('answers 402 suggesting an own key, without calling the provider', async () => {
      const w = aWorld();
      const error = await w.send({ provider: 'provider_b' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentRequiredError);
      expect((error as Error).message).toBe(
        "The Free plan does not include the platform's AI keys. To use Anthropic, save your own Anthropic key under Provider keys (own keys are never metered).",
      );
      expect(w.engine.requests).toEqual([]);
    });

    it('recovers once a key is saved', async () => {
      const w = aWorld();
      await expect(w.send()).rejects.toBeInstanceOf(PaymentRequiredError);
      await w.saveOwnKey();
      await expect(w.send()).resolves.toMatchObject({ usage: { totalTokens: 100 } });
    });
  });

  describe('on a paid plan without an own key', () => {
    it('leaves the key to the platform and counts the tokens the provider reported', async () => {
      const w = aWorld();
      await w.onPlan('starter');
      await w.send();
      expect(w.engine.requests[0]!.apiKey).toBeUndefined();
      expect(await w.counters()).toEqual({ tokensUsed: 100, tokensReserved: 0, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 1 });
    });

    it('releases the reservation and gives the message back when the call fails', async () => {
      const w = aWorld();
      await w.onPlan('starter');
      w.engine.failNext = true;
      await expect(w.send()).rejects.toBeInstanceOf(UpstreamError);
      expect(await w.counters()).toEqual({ tokensUsed: 0, tokensReserved: 0, overageTokens: 0, ownKeyTokens: 0, messagesUsed: 0 });
    });

    it('releases the reservation when a later policy refuses the turn', async () => {
      const refuse: ChatPolicy = { name: 'refuse', prepare: () => Promise.reject(new Error('no')) };
      const w = aWorld({ policiesAfter: [refuse] });
      await w.onPlan('pro');
      await expect(w.send()).rejects.toThrow('no');
      expect(await w.counters()).toMatchObject({ tokensReserved: 0, messagesUsed: 0 });
    });

    it.each([
      ['starter', 100_000],
      ['pro', 500_000],
    ] as const)('on %s, records overage past the included tokens instead of refusing', async (plan, included) => {
      const w = aWorld();
      await w.onPlan(plan);
      await w.spend(included - 40);
      await w.send();
      await w.send();
      expect(await w.counters()).toMatchObject({ tokensUsed: included + 160, overageTokens: 160 });
    });

    it('counts without limit on Enterprise', async () => {
      const w = aWorld();
      await w.onPlan('enterprise');
      await w.spend(50_000_000);
      await w.send();
      expect(await w.counters()).toMatchObject({ tokensUsed: 50_000_100, overageTokens: 0 });
    });

    it('stops at the included tokens while trialing, suggesting an own key', async () => {
      const w = aWorld();
      await w.onPlan('starter', 'trialing');
      await w.spend(99_950);
      await w.send();
      // 100,050 used: one request past the limit, and no further.
      const error = await w.send().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentRequiredError);
      expect((error as Error).message).toBe(
        "This month's 100,000 platform tokens of the Starter plan are used up. It starts again on 2026-04-01; to chat before then, save your own OpenAI key under Provider keys (own keys are never metered).",
      );
      expect(await w.counters()).toMatchObject({ tokensUsed: 100_050, messagesUsed: 2 });
      await w.saveOwnKey();
      await expect(w.send()).resolves.toBeDefined();
    });

    it('holds the worst case while a call runs, so a concurrent one cannot take the same allowance', async () => {
      const w = aWorld();
      await w.onPlan('starter', 'past_due');
      await w.spend(99_990);
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => w.send()));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof PaymentRequiredError)).toBe(true);
      // One message for the earlier spending, one for the turn that ran.
      expect(await w.counters()).toMatchObject({ tokensUsed: 100_090, tokensReserved: 0, messagesUsed: 2 });
    });
  });

  it('refuses past the monthly message limit with a 402 naming it, whatever the key', async () => {
    const w = aWorld();
    await w.saveOwnKey();
    for (let i = 0; i < 1_000; i++) await w.send();
    // The user has a key already: the way out is a larger plan, and without payments only the administrator gives one.
    const error = (await w.send().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^The Free plan allows 1,000 messages per month, and this month's are used up\. It starts again on \d{4}-\d{2}-\d{2}; to chat before then, ask the platform's administrator to raise your plan\.$/);
    expect(error.message).not.toMatch(/key|upgrade|\/api\//i);
  });

  it('offers an upgrade for a used-up allowance only where payments are configured', async () => {
    const w = aWorld({ payments: true });
    await w.saveOwnKey();
    for (let i = 0; i < 1_000; i++) await w.send();
    await expect(w.send()).rejects.toThrow(/this month's are used up\. It starts again on \S+; to chat before then, upgrade your plan\.$/);
  });

  describe("for the platform's admin", () => {
    it('holds no plan limit: past the Free messages, on the platform key without an own key, with nothing billed', async () => {
      const w = aWorld({ admin: true });
      for (let i = 0; i < 1_005; i++) await w.send();
      expect(w.engine.requests.at(-1)!.apiKey).toBeUndefined();
      expect(await w.counters()).toMatchObject({ messagesUsed: 1_005, tokensUsed: 100_500, overageTokens: 0, tokensReserved: 0 });
    });

    it('keeps the plan the subscription names, with every limit lifted', async () => {
      const w = aWorld({ admin: true });
      const current = await currentPlan({ ...w.deps, admins: { isAdmin: async () => true } }, w.ownerId);
      expect(current).toMatchObject({ exempt: true, entitlements: { plan: { tier: 'free' }, platformKeys: true, overageAllowed: false } });
      expect(current.entitlements.limits).toEqual({ includedTokens: null, applications: null, messagesPerMonth: null, apiKeys: null });
    });
  });

  it('starts each billing month with fresh counters', async () => {
    const w = aWorld();
    await w.onPlan('starter', 'trialing');
    await w.spend(100_000);
    await expect(w.send()).rejects.toBeInstanceOf(PaymentRequiredError);
    w.moveClock('2026-04-01T12:00:00Z');
    await w.send();
    expect(await w.counters()).toMatchObject({ tokensUsed: 100, messagesUsed: 1 });
  });

  it('refuses an unknown provider with a 400 before holding anything', async () => {
    const w = aWorld();
    await w.onPlan('pro');
    await expect(w.send({ provider: 'provider_x' })).rejects.toThrow(/provider must be one of/);
    expect(await w.counters()).toMatchObject({ messagesUsed: 0 });
  });

  describe('a turn that runs the tool loop (quota per model round)', () => {
    const withTools = (maxToolRounds: number): TurnTools => ({
      tools: [{ name: 'lookup' } as Tool],
      settings: { enabledTools: ['lookup'], toolChoice: 'auto', maxToolRounds, timeBudgetMs: 10_000, parallelCalls: false },
      ownerId: 'the-owner',
    });

    it('holds every tool round like the first model call, runs only the rounds the plan has tokens for, and gives every hold back', async () => {
      const w = aWorld({ tools: withTools(5) });
      await w.onPlan('starter', 'trialing');
      let held = 0;
      w.engine.during = async () => void (held = (await w.counters()).tokensReserved);
      await w.send();
      expect(w.engine.requests[0]!.tools!.settings.maxToolRounds).toBe(5);
      // The first model call's hold, and five more like it.
      expect(held % 6).toBe(0);
      const perRound = held / 6;
      expect(perRound).toBeGreaterThan(0);
      expect(await w.counters()).toMatchObject({ tokensUsed: 100, tokensReserved: 0, messagesUsed: 1 });

      // Tokens left for the first call and two and a half rounds: 5 rounds do not fit, 2 do.
      await w.spend(100_000 - 100 - Math.floor(perRound * 3.5));
      await w.send();
      expect(w.engine.requests[1]!.tools!.settings.maxToolRounds).toBe(2);
      // Tokens left for the first call only: the turn still answers, in one round without tools.
      const { tokensUsed } = await w.counters();
      await w.spend(100_000 - tokensUsed - perRound);
      await w.send();
      expect(w.engine.requests[2]!.tools!.settings.maxToolRounds).toBe(0);
      // Three turns and the two spendings: the rounds count no message of their own.
      expect(await w.counters()).toMatchObject({ tokensReserved: 0, messagesUsed: 5 });
    });

    it('runs every round on an own key, without holding anything', async () => {
      const w = aWorld({ tools: withTools(5) });
      await w.onPlan('starter', 'trialing');
      await w.saveOwnKey();
      await w.spend(100_000);
      await w.send();
      expect(w.engine.requests[0]!.tools!.settings.maxToolRounds).toBe(5);
      expect(await w.counters()).toMatchObject({ tokensReserved: 0 });
    });
  });
});
