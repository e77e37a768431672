import { randomUUID } from 'node:crypto';
import { InMemoryConversationRepository } from '../../../adapters/persistence/in-memory/in-memory-conversation.repository';
import { createLlmProviderRegistry } from '../../../adapters/providers/provider-registry';
import { CircuitBreakers } from '../../../core/ai/domain/circuit-breaker';
import type { ChatStreamEvent } from '../../../core/ai/ports/chat-engine.port';
import { InProcessChatEngine } from '../../../core/ai/use-cases/in-process-chat-engine';
import { defaultResilienceRuntime, type ResilienceRuntime } from '../../../core/ai/use-cases/resilient-llm-provider';
import { systemClock } from '../../../core/shared/clock.port';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';

/**
 * Retries, fallbacks and breakers (docs/connections.md, "Resilience") through the real SDKs against the
 * provider emulator, told per model to answer 429 with Retry-After, 500, or to cut a stream.
 */
const KEYS = { provider_a: 'sk-platform-a-0001', provider_b: 'sk-ant-platform-b-0001' };
const applicationId = randomUUID();

let emulator: Emulator;
let engine: InProcessChatEngine;
let runtime: ResilienceRuntime;
let conversations: InMemoryConversationRepository;
let clock = 1_000_000;
let slept: number[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  const providers = createLlmProviderRegistry({ baseUrls: emulator.baseUrls, platformKeys: KEYS, timeoutMs: 5_000 });
  conversations = new InMemoryConversationRepository({ findById: async (id) => (id === applicationId ? ({ id, ownerId: 'owner' } as never) : null) });
  // Time is the test's: the breaker's open period passes when the test says; waits are recorded, then made short.
  runtime = defaultResilienceRuntime({
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
  });
  engine = new InProcessChatEngine({ conversations, providers, clock: systemClock, resilience: runtime });
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  slept = [];
  runtime.breakers = new CircuitBreakers({ failureThreshold: 3, openMs: 30_000, now: () => clock });
});

const chatRequests = (model: string) => emulator.requests.filter((r) => r.body?.model === model && /messages|completions/.test(r.path));
const resilience = (extra: Record<string, unknown> = {}) => ({ retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 400 }, ...extra });

async function open() {
  return engine.createConversation({ applicationId });
}

it('retries a 429 after the Retry-After the provider gave, and answers', async () => {
  emulator.behaviour.modelFaults = { 'gpt-4o': { status: 429, retryAfter: 1, times: 1 } };
  const conversation = await open();
  const answer = await engine.sendMessage(conversation.id, { content: 'hello', provider: 'provider_a', model: 'gpt-4o', settings: { resilience: resilience() } });
  expect(answer.answeredBy).toEqual({ provider: 'provider_a', model: 'gpt-4o', fallback: false });
  expect(chatRequests('gpt-4o')).toHaveLength(2);
  // The provider's Retry-After (1 s) wins over the policy's 100 ms backoff.
  expect(slept).toEqual([1000]);
  const stored = (await engine.getConversation(conversation.id)).messages.at(-1)!;
  expect(stored).toMatchObject({ status: 'complete', provider: 'provider_a', model: 'gpt-4o', answeredBy: { fallback: false } });
});

it('falls back to the next pair when the primary answers 500 every time, and the message names the model that answered', async () => {
  emulator.behaviour.modelFaults = { 'gpt-4.1': { status: 500 } };
  const conversation = await open();
  const settings = { resilience: resilience({ fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] }) };
  const answer = await engine.sendMessage(conversation.id, { content: 'hello', provider: 'provider_a', model: 'gpt-4.1', settings });
  expect(answer).toMatchObject({ provider: 'provider_b', model: 'claude-3-5-haiku-latest', answeredBy: { provider: 'provider_b', model: 'claude-3-5-haiku-latest', fallback: true } });
  // The first attempt and two retries, with exponential waits.
  expect(chatRequests('gpt-4.1')).toHaveLength(3);
  expect(slept).toHaveLength(2);
  expect(slept[1]!).toBeGreaterThanOrEqual(slept[0]!);
  const stored = (await engine.getConversation(conversation.id)).messages.at(-1)!;
  expect(stored).toMatchObject({ provider: 'provider_b', model: 'claude-3-5-haiku-latest', answeredBy: { fallback: true } });
  // Every attempt is in the message metadata, the failed ones with their status.
  const metadata = (await conversations.messages(conversation.id)).at(-1)!.metadata!;
  expect(metadata.attempts!.map((a) => [a.provider, a.outcome, a.status])).toEqual([
    ['provider_a', 'failed', 502],
    ['provider_a', 'failed', 502],
    ['provider_a', 'failed', 502],
    ['provider_b', 'answered', undefined],
  ]);
  expect(JSON.stringify(metadata)).not.toContain(KEYS.provider_a);
});

it('goes straight to the fallback while the breaker is open, until a half-open probe succeeds', async () => {
  emulator.behaviour.modelFaults = { 'gpt-4.1-mini': { status: 503 } };
  const settings = { resilience: { retry: { maxRetries: 2, baseDelayMs: 50, maxDelayMs: 50 }, fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] } };
  const send = async () => engine.sendMessage((await open()).id, { content: 'hi', provider: 'provider_a', model: 'gpt-4.1-mini', settings });
  // Three consecutive failures open the platform key's breaker.
  expect((await send()).answeredBy?.fallback).toBe(true);
  expect(chatRequests('gpt-4.1-mini')).toHaveLength(3);
  expect(runtime.breakers.snapshot()).toEqual([expect.objectContaining({ state: 'open', label: 'provider_a …0001' })]);

  emulator.requests.length = 0;
  expect((await send()).answeredBy?.fallback).toBe(true);
  expect(chatRequests('gpt-4.1-mini')).toHaveLength(0);

  // The open period passes and the provider recovers: one probe goes through and closes the breaker.
  clock += 31_000;
  emulator.behaviour.modelFaults = {};
  expect((await send()).answeredBy).toEqual({ provider: 'provider_a', model: 'gpt-4.1-mini', fallback: false });
  expect(chatRequests('gpt-4.1-mini')).toHaveLength(1);
  expect(runtime.breakers.snapshot()).toEqual([]);
});

it('streams through a fallback when the primary fails before its first chunk', async () => {
  emulator.behaviour.modelFaults = { 'gpt-4-turbo': { status: 500 } };
  const conversation = await open();
  const settings = { resilience: { retry: { maxRetries: 0 }, fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] } };
  const events: ChatStreamEvent[] = [];
  for await (const e of await engine.streamMessage(conversation.id, { content: 'stream me', provider: 'provider_a', model: 'gpt-4-turbo', settings })) events.push(e);
  const done = events.at(-1)!;
  expect(done).toMatchObject({ type: 'done', provider: 'provider_b', model: 'claude-3-5-haiku-latest', answeredBy: { fallback: true } });
  expect(events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(0);
});

it('never restarts a stream that has sent its first chunk on another model', async () => {
  // Chunks spaced out, so the first ones reach the client well before the provider dies.
  emulator.behaviour.chunkDelayMs = 20;
  emulator.behaviour.dropAfterChunks = 3;
  const conversation = await open();
  const settings = { resilience: { retry: { maxRetries: 2, baseDelayMs: 50, maxDelayMs: 50 }, fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] } };
  const events: ChatStreamEvent[] = [];
  for await (const e of await engine.streamMessage(conversation.id, { content: 'a long answer please', provider: 'provider_a', model: 'gpt-4o-mini', settings })) events.push(e);
  expect(events.filter((e) => e.type === 'chunk').length).toBeGreaterThan(0);
  expect(events.at(-1)).toMatchObject({ type: 'error' });
  expect(emulator.requests.filter((r) => r.provider === 'provider_b')).toHaveLength(0);
  expect(chatRequests('gpt-4o-mini')).toHaveLength(1);
  expect(slept).toEqual([]);
});

it('costs a turn that answers at once nothing for its policy: no attempt list stored, the fallbacks only worked out when reached', async () => {
  // A fallback that cannot be used (no such model) is noticed only when the primary is spent.
  const fallbacks = [{ provider: 'provider_b', model: 'no-such-model' }];
  const settings = { resilience: resilience({ fallbacks }) };
  const conversation = await open();
  const answer = await engine.sendMessage(conversation.id, { content: 'hello', provider: 'provider_a', model: 'gpt-4o-mini', settings });
  expect(answer.answeredBy).toEqual({ provider: 'provider_a', model: 'gpt-4o-mini', fallback: false });
  expect((await conversations.messages(conversation.id)).at(-1)!.metadata).toEqual({ answeredBy: { provider: 'provider_a', model: 'gpt-4o-mini', fallback: false } });

  emulator.behaviour.modelFaults = { 'gpt-4o-mini': { status: 500 } };
  await expect(engine.sendMessage(conversation.id, { content: 'again', provider: 'provider_a', model: 'gpt-4o-mini', settings: { resilience: { retry: { maxRetries: 0 }, fallbacks } } })).rejects.toMatchObject({ status: 502 });
  const failed = (await conversations.messages(conversation.id)).at(-1)!;
  expect(failed.metadata?.attempts?.map((a) => [a.provider, a.model, a.outcome, a.reason])).toEqual([
    ['provider_a', 'gpt-4o-mini', 'failed', expect.any(String)],
    ['provider_b', 'no-such-model', 'skipped', 'no-such-model is not a provider_b model'],
  ]);
});

it('hands a resilient stream through part by part, and a client that stops early ends the turn without a fallback asked', async () => {
  const settings = { resilience: resilience({ fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] }) };
  const events: ChatStreamEvent[] = [];
  for await (const e of await engine.streamMessage((await open()).id, { content: 'a long answer please', provider: 'provider_a', model: 'gpt-4o-mini', settings })) events.push(e);
  const chunks = events.filter((e) => e.type === 'chunk');
  expect(chunks.length).toBeGreaterThan(1);
  expect(events.at(-1)).toMatchObject({ type: 'done', answeredBy: { provider: 'provider_a', fallback: false }, fullResponse: chunks.map((c) => (c as { content: string }).content).join('') });

  const early = await engine.streamMessage((await open()).id, { content: 'a long answer please', provider: 'provider_a', model: 'gpt-4o-mini', settings });
  for await (const e of early) if (e.type === 'chunk') break;
  expect(emulator.requests.filter((r) => r.provider === 'provider_b')).toHaveLength(0);
});
