import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ChatRequest, LlmProvider, StreamPart, TokenUsage } from '../../../core/ai/ports/llm-provider.port';
import { UpstreamError, UpstreamTimeoutError } from '../../../core/shared/errors';
import { AnthropicLlmProvider } from '../../../adapters/providers/anthropic-llm.provider';
import { GeminiLlmProvider } from '../../../adapters/providers/gemini-llm.provider';
import { HuggingFaceLlmProvider } from '../../../adapters/providers/hugging-face-llm.provider';
import { OpenAiLlmProvider } from '../../../adapters/providers/openai-llm.provider';
import type { ProviderOptions } from '../../../adapters/providers/provider-call';
import { startEmulator, type Emulator, type RecordedRequest } from '../../support/emulator/emulator';

/** The settings as each provider's wire format carries them, read back from the recorded request. */
interface Wire {
  system?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
}

interface ProviderCase {
  id: ProviderId;
  make: (options: ProviderOptions) => LlmProvider;
  model: string;
  key: string;
  wire: (body: any) => Wire;
  /** Settings the provider's API has no field for; they must not reach the wire. */
  dropped: (keyof Wire)[];
}

const openAiStyle = (maxTokensField: string) => (body: any): Wire => ({
  system: body.messages.find((m: any) => m.role === 'system')?.content,
  temperature: body.temperature,
  topP: body.top_p,
  maxTokens: body[maxTokensField],
  frequencyPenalty: body.frequency_penalty,
  presencePenalty: body.presence_penalty,
});

const CASES: ProviderCase[] = [
  { id: 'provider_a', make: (o) => new OpenAiLlmProvider(o), model: 'gpt-4o-mini', key: 'sk-test-a-1234', wire: openAiStyle('max_completion_tokens'), dropped: [] },
  {
    id: 'provider_b',
    make: (o) => new AnthropicLlmProvider(o),
    model: 'claude-3-5-sonnet-20241022',
    key: 'sk-ant-test-b-1234',
    wire: (body) => ({
      system: body.system,
      temperature: body.temperature,
      topP: body.top_p,
      maxTokens: body.max_tokens,
      frequencyPenalty: body.frequency_penalty,
      presencePenalty: body.presence_penalty,
    }),
    dropped: ['temperature', 'topP', 'frequencyPenalty', 'presencePenalty'],
  },
  {
    id: 'provider_c',
    make: (o) => new GeminiLlmProvider(o),
    model: 'gemini-2.0-flash',
    key: 'AIzaSyTestC1234',
    wire: (body) => ({
      system: body.systemInstruction?.parts?.[0]?.text,
      temperature: body.generationConfig?.temperature,
      topP: body.generationConfig?.topP,
      maxTokens: body.generationConfig?.maxOutputTokens,
      frequencyPenalty: body.generationConfig?.frequencyPenalty,
      presencePenalty: body.generationConfig?.presencePenalty,
    }),
    dropped: [],
  },
  { id: 'provider_d', make: (o) => new HuggingFaceLlmProvider(o), model: 'meta-llama/Llama-3.1-8B-Instruct', key: 'hf_testD1234', wire: openAiStyle('max_tokens'), dropped: [] },
];

/** Generous for ordinary calls, so a loaded machine does not turn them into timeouts. */
const TIMEOUT_MS = 5_000;
/** For the timeout tests: far below the emulator's 5 s stall, well above a loaded machine's latency. */
const SHORT_TIMEOUT_MS = 600;
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

async function collect(parts: AsyncIterable<StreamPart>): Promise<{ text: string; deltas: string[]; usage: TokenUsage[] }> {
  const deltas: string[] = [];
  const usage: TokenUsage[] = [];
  for await (const part of parts) {
    if (part.type === 'delta') deltas.push(part.text);
    else if (part.type === 'usage') usage.push(part.usage);
  }
  return { text: deltas.join(''), deltas, usage };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe.each(CASES)('$id through its SDK against the emulator', ({ id, make, model, key, wire, dropped }) => {
  const provider = (timeoutMs = TIMEOUT_MS) => make({ baseUrl: emulator.baseUrls[id], timeoutMs });
  const request = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
    model,
    messages: [{ role: 'user', content: 'hello there' }],
    settings: { temperature: 0.4, maxTokens: 256, topP: 0.9 },
    apiKey: key,
    ...overrides,
  });
  const lastCall = (): RecordedRequest => emulator.requests.filter((r) => r.provider === id && r.method === 'POST').at(-1)!;

  it('answers a chat with content, usage and the model', async () => {
    const result = await provider().chat(request());
    expect(result.content).toBe('Echo: hello there');
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
    expect(result.model).toBe(model);
    expect(lastCall().apiKey).toBe(key);
  });

  it('streams deltas that join to the non-streamed answer, then reports usage once', async () => {
    const whole = await provider().chat(request({ messages: [{ role: 'user', content: 'one two three four' }] }));
    const streamed = await collect(provider().stream(request({ messages: [{ role: 'user', content: 'one two three four' }] })));
    expect(streamed.deltas.length).toBeGreaterThan(1);
    expect(streamed.text).toBe(whole.content);
    expect(streamed.usage).toEqual([whole.usage]);
    expect(emulator.requests.every((r) => !r.aborted)).toBe(true);
  });

  it('sends the settings and the system text in its own wire format', async () => {
    const settings = { temperature: 0.3, maxTokens: 321, topP: 0.8, frequencyPenalty: 0.5, presencePenalty: -0.5 };
    const result = await provider().chat(request({ system: 'You are terse.', settings }));
    expect(result.content).toBe('[system: You are terse.] Echo: hello there');
    const expected: Wire = { system: 'You are terse.', temperature: 0.3, topP: 0.8, maxTokens: 321, frequencyPenalty: 0.5, presencePenalty: -0.5 };
    for (const field of dropped) delete expected[field];
    expect(JSON.parse(JSON.stringify(wire(lastCall().body)))).toEqual(expected);
  });

  it('leaves optional penalties out when they are not set', async () => {
    await provider().chat(request());
    const sent = wire(lastCall().body);
    expect(sent.frequencyPenalty).toBeUndefined();
    expect(sent.presencePenalty).toBeUndefined();
    expect(sent.system).toBeUndefined();
  });

  it('keeps the conversation history and answers its last user turn', async () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ];
    expect((await provider().chat(request({ messages }))).content).toBe('Echo: second question');
    expect(JSON.stringify(lastCall().body)).toContain('first answer');
  });

  it('lists the models live, with the key of the call', async () => {
    const models = await provider().listModels(key);
    expect(models).toContain(model);
    expect(emulator.requests.at(-1)).toMatchObject({ provider: id, method: 'GET', apiKey: key });
  });

  it('turns a refused key into a 424 naming the provider and the key’s last 4 characters, without the key', async () => {
    const rejected = `${key}-rejected`;
    for (const call of [() => provider().chat(request({ apiKey: rejected })), () => collect(provider().stream(request({ apiKey: rejected }))), () => provider().listModels(rejected)]) {
      const error = (await failureOf(call())) as UpstreamError;
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ status: 424 });
      expect(error.message).toMatch(new RegExp(`^${id} \\([A-Za-z ]+\\) rejected the API key ending in "cted": `));
      expect(error.message).not.toContain(rejected);
    }
  });

  it('turns a provider 5xx into a 502 naming the provider', async () => {
    const error = await failureOf(provider().chat(request({ apiKey: `${key}-fail500` })));
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(502);
    expect((error as Error).message).toMatch(new RegExp(`^${id} failed: `));
    expect((error as Error).message).not.toContain(key);
    emulator.behaviour.failStatus = 503;
    expect(await failureOf(collect(provider().stream(request())))).toMatchObject({ status: 502 });
  });

  it('passes a refused request on as 400 and throttling as 429', async () => {
    emulator.behaviour.failStatus = 400;
    const refused = await failureOf(provider().chat(request()));
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({ status: 400, message: expect.stringMatching(new RegExp(`^${id} refused the request`)) });
    emulator.behaviour.failStatus = 429;
    expect(await failureOf(provider().chat(request()))).toMatchObject({ status: 429 });
  });

  it('times out a provider that does not answer, and cancels its request', async () => {
    emulator.behaviour.delayMs = 5_000;
    const error = await failureOf(provider(SHORT_TIMEOUT_MS).chat(request()));
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect((error as Error).message).toContain(id);
    await emulator.waitFor((requests) => requests.some((r) => r.aborted));
  });

  it('times out a stream that stalls between chunks', async () => {
    emulator.behaviour.chunkDelayMs = 5_000;
    const parts: StreamPart[] = [];
    const error = await failureOf(
      (async () => {
        for await (const part of provider(SHORT_TIMEOUT_MS).stream(request())) parts.push(part);
      })(),
    );
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(parts.length).toBeGreaterThan(0);
    await emulator.waitFor((requests) => requests.some((r) => r.aborted));
  });

  it('cancels the provider request when the caller aborts mid-stream, rethrowing the abort as is', async () => {
    emulator.behaviour.chunkDelayMs = 200;
    const controller = new AbortController();
    const parts = provider().stream(request({ signal: controller.signal }))[Symbol.asyncIterator]();
    const first = await parts.next();
    expect(first.value).toMatchObject({ type: 'delta' });
    controller.abort();
    const error = await failureOf(parts.next());
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    await emulator.waitFor((requests) => requests.some((r) => r.provider === id && r.aborted));
  });

  it('cancels the provider request when the consumer stops reading', async () => {
    emulator.behaviour.chunkDelayMs = 200;
    for await (const part of provider().stream(request())) {
      expect(part.type).toBe('delta');
      break;
    }
    await emulator.waitFor((requests) => requests.some((r) => r.provider === id && r.aborted));
  });

  it('does not call the provider at all for an already aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await failureOf(provider().chat(request({ signal: controller.signal })))).toBe(controller.signal.reason);
    expect(emulator.requests).toHaveLength(0);
  });

  it('reports a connection cut mid-answer as a 502', async () => {
    emulator.behaviour.chunkDelayMs = 1;
    emulator.behaviour.dropAfterChunks = 1;
    const parts: StreamPart[] = [];
    const error = await failureOf(
      (async () => {
        for await (const part of provider().stream(request())) parts.push(part);
      })(),
    );
    expect(parts).toEqual([{ type: 'delta', text: 'Echo: ' }]);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(502);
    expect(emulator.requests.at(-1)!.aborted).toBe(false);
  });

  it('reports an unreachable provider as a 502', async () => {
    const offline = make({ baseUrl: 'http://127.0.0.1:9/nowhere', timeoutMs: TIMEOUT_MS });
    const error = await failureOf(offline.chat(request()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, message: expect.stringMatching(new RegExp(`^${id} failed: `)) });
    expect((error as Error).message).not.toContain('127.0.0.1');
  });
});

describe('wire details of single providers', () => {
  it('provider_b and provider_c get alternating turns that open with the user', async () => {
    const messages: ChatRequest['messages'] = [
      { role: 'assistant', content: 'Welcome!' },
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
    ];
    const base = { model: '', messages, settings: { temperature: 0.5, maxTokens: 100, topP: 1 } };
    await new AnthropicLlmProvider({ baseUrl: emulator.baseUrls.provider_b, timeoutMs: TIMEOUT_MS }).chat({ ...base, model: 'claude-3-5-haiku-20241022', apiKey: 'sk-ant-x' });
    expect(emulator.requests.at(-1)!.body.messages).toEqual([{ role: 'user', content: 'first\n\nsecond' }]);
    await new GeminiLlmProvider({ baseUrl: emulator.baseUrls.provider_c, timeoutMs: TIMEOUT_MS }).chat({ ...base, model: 'gemini-1.5-flash', apiKey: 'AIzaSyX' });
    expect(emulator.requests.at(-1)!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'first\n\nsecond' }] }]);
  });

  it('provider_c addresses the model in the path and streams over SSE', async () => {
    const provider = new GeminiLlmProvider({ baseUrl: emulator.baseUrls.provider_c, timeoutMs: TIMEOUT_MS });
    await collect(provider.stream({ model: 'gemini-1.5-pro', messages: [{ role: 'user', content: 'hi' }], settings: { temperature: 1, maxTokens: 10, topP: 1 }, apiKey: 'AIzaSyX' }));
    expect(emulator.requests.at(-1)).toMatchObject({ path: '/v1beta/models/gemini-1.5-pro:streamGenerateContent', query: { alt: 'sse' } });
  });

  it('provider_d posts chat to <endpointUrl>/v1/chat/completions with the model in the body', async () => {
    const provider = new HuggingFaceLlmProvider({ baseUrl: emulator.baseUrls.provider_d, timeoutMs: TIMEOUT_MS });
    await provider.chat({ model: 'some-org/some-model', messages: [{ role: 'user', content: 'hi' }], settings: { temperature: 1, maxTokens: 10, topP: 1 }, apiKey: 'hf_x' });
    expect(emulator.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: 'some-org/some-model' } });
  });

  it('a short maxTokens cuts the answer, as the provider would', async () => {
    const provider = new OpenAiLlmProvider({ baseUrl: emulator.baseUrls.provider_a, timeoutMs: TIMEOUT_MS });
    const result = await provider.chat({ model: 'gpt-4o', messages: [{ role: 'user', content: 'a b c d e f' }], settings: { temperature: 1, maxTokens: 3, topP: 1 }, apiKey: 'sk-x' });
    expect(result.content).toBe('Echo: a b ');
    expect(result.usage.completionTokens).toBe(3);
  });
});
