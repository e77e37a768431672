import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ChatRequest, ChatTurn, LlmProvider, StreamPart, ToolCall, ToolSpec } from '../../../core/ai/ports/llm-provider.port';
import { AnthropicLlmProvider } from '../../../adapters/providers/anthropic-llm.provider';
import { GeminiLlmProvider } from '../../../adapters/providers/gemini-llm.provider';
import { HuggingFaceLlmProvider } from '../../../adapters/providers/hugging-face-llm.provider';
import { OpenAiLlmProvider } from '../../../adapters/providers/openai-llm.provider';
import type { ProviderOptions } from '../../../adapters/providers/provider-call';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';

interface ProviderCase {
  id: ProviderId;
  make: (options: ProviderOptions) => LlmProvider;
  model: string;
  key: string;
  /** The tool names as the provider's wire format carries them. */
  offered: (body: any) => string[];
  /** Whether the API has a switch for one call at a time. */
  parallelSwitch: boolean;
}

const openAiTools = (body: any) => body.tools.map((t: any) => t.function.name);
const CASES: ProviderCase[] = [
  { id: 'provider_a', make: (o) => new OpenAiLlmProvider(o), model: 'gpt-4o-mini', key: 'sk-test-a-1234', offered: openAiTools, parallelSwitch: true },
  { id: 'provider_b', make: (o) => new AnthropicLlmProvider(o), model: 'claude-3-5-sonnet-20241022', key: 'sk-ant-test-b-1234', offered: (b) => b.tools.map((t: any) => t.name), parallelSwitch: true },
  { id: 'provider_c', make: (o) => new GeminiLlmProvider(o), model: 'gemini-2.0-flash', key: 'AIzaSyTestC1234', offered: (b) => b.tools[0].functionDeclarations.map((f: any) => f.name), parallelSwitch: false },
  { id: 'provider_d', make: (o) => new HuggingFaceLlmProvider(o), model: 'meta-llama/Llama-3.1-8B-Instruct', key: 'hf_testD1234', offered: openAiTools, parallelSwitch: true },
];

const TOOLS: ToolSpec[] = [
  { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
  { name: 'get_time', description: 'The time in a time zone', parameters: { type: 'object', properties: { zone: { type: ['string', 'null'] } } } },
];

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

async function collect(parts: AsyncIterable<StreamPart>): Promise<{ text: string; calls: ToolCall[] }> {
  let text = '';
  const calls: ToolCall[] = [];
  for await (const part of parts) {
    if (part.type === 'delta') text += part.text;
    else if (part.type === 'tool_call') calls.push(part.call);
  }
  return { text, calls };
}

const shape = (calls: ToolCall[] | undefined) => (calls ?? []).map((c) => ({ name: c.name, args: JSON.parse(c.arguments) }));

describe.each(CASES)('$id function calling through its SDK', (c) => {
  const provider = () => c.make({ baseUrl: emulator.baseUrls[c.id], timeoutMs: 5_000 });
  const request = (messages: ChatTurn[], extra: Partial<ChatRequest> = {}): ChatRequest => ({
    model: c.model,
    messages,
    settings: { temperature: 0.5, maxTokens: 200, topP: 1 },
    apiKey: c.key,
    tools: TOOLS,
    ...extra,
  });
  const ask = (text: string): ChatTurn[] => [{ role: 'user', content: text }];

  it('offers the tools in its own format and gets one call back', async () => {
    const result = await provider().chat(request(ask('Weather please [[call get_weather {"city":"Oslo"}]]')));
    expect(shape(result.toolCalls)).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(result.toolCalls![0]!.id).toMatch(/\S/);
    const body = emulator.requests[emulator.requests.length - 1]!.body;
    expect(c.offered(body)).toEqual(['get_weather', 'get_time']);
  });

  it('gets a parallel pair of calls, and one when parallel calls are off', async () => {
    const text = 'Both [[call get_weather {"city":"Oslo"}]] and [[call get_time {"zone":"Europe/Oslo"}]]';
    const pair = await provider().chat(request(ask(text)));
    expect(shape(pair.toolCalls)).toEqual([
      { name: 'get_weather', args: { city: 'Oslo' } },
      { name: 'get_time', args: { zone: 'Europe/Oslo' } },
    ]);
    expect(new Set(pair.toolCalls!.map((t) => t.id)).size).toBe(2);
    if (c.parallelSwitch) {
      const single = await provider().chat(request(ask(text), { parallelToolCalls: false }));
      expect(shape(single.toolCalls)).toEqual([{ name: 'get_weather', args: { city: 'Oslo' } }]);
    }
  });

  it('assembles streamed calls from their pieces', async () => {
    emulator.behaviour.chunkDelayMs = 2;
    const text = 'Both [[call get_weather {"city":"Saint-Malo"}]] and [[call get_time {"zone":"Europe/Paris"}]]';
    const streamed = await collect(provider().stream(request(ask(text))));
    expect(streamed.text).toBe('');
    expect(shape(streamed.calls)).toEqual([
      { name: 'get_weather', args: { city: 'Saint-Malo' } },
      { name: 'get_time', args: { zone: 'Europe/Paris' } },
    ]);
  });

  it('answers with a result fed back, whole and streamed', async () => {
    const first = await provider().chat(request(ask('Weather please [[call get_weather {"city":"Oslo"}]]')));
    const call = first.toolCalls![0]!;
    const history: ChatTurn[] = [
      ...ask('Weather please [[call get_weather {"city":"Oslo"}]]'),
      { role: 'assistant', content: first.content, toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, name: call.name, content: 'Sunny, 21 degrees' },
    ];
    const answer = await provider().chat(request(history));
    expect(answer.toolCalls ?? []).toEqual([]);
    expect(answer.content).toBe('get_weather returned: Sunny, 21 degrees');
    const streamed = await collect(provider().stream(request(history)));
    expect(streamed).toEqual({ text: 'get_weather returned: Sunny, 21 degrees', calls: [] });
  });

  it('carries an error result and a later user turn in order', async () => {
    const first = await provider().chat(request(ask('[[call get_weather {"city":"Oslo"}]]')));
    const call = first.toolCalls![0]!;
    const history: ChatTurn[] = [
      ...ask('[[call get_weather {"city":"Oslo"}]]'),
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, name: call.name, content: 'the weather service timed out', isError: true },
      { role: 'assistant', content: 'The weather service is down.' },
      { role: 'user', content: 'Thanks anyway' },
    ];
    const answer = await provider().chat(request(history));
    expect(answer.content).toBe('Echo: Thanks anyway');
  });

  it('follows the tool choice: none calls nothing, a named tool is called', async () => {
    const none = await provider().chat(request(ask('[[call get_weather {"city":"Oslo"}]]'), { toolChoice: 'none' }));
    expect(none.toolCalls ?? []).toEqual([]);
    const named = await provider().chat(request(ask('What time is it?'), { toolChoice: { name: 'get_time' } }));
    expect(shape(named.toolCalls)).toEqual([{ name: 'get_time', args: {} }]);
  });

  it('carries each schema as the API takes it', async () => {
    await provider().chat(request(ask('hello')));
    const body = emulator.requests[emulator.requests.length - 1]!.body;
    if (c.id === 'provider_c') {
      // Gemini refuses keywords outside its OpenAPI subset; a type list with null becomes nullable.
      const [weather, time] = body.tools[0].functionDeclarations;
      expect(weather.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
      expect(time.parameters.properties.zone).toEqual({ type: 'string', nullable: true });
    } else {
      expect(JSON.stringify(body.tools)).toContain('"additionalProperties":false');
    }
  });

  it('sends no tools when none are offered', async () => {
    const plain = await provider().chat(request(ask('[[call get_weather {}]]'), { tools: [] }));
    expect(plain.toolCalls).toBeUndefined();
    expect(plain.content).toBe('Echo: [[call get_weather {}]]');
    expect(emulator.requests[emulator.requests.length - 1]!.body.tools).toBeUndefined();
  });
});
