import { randomBytes } from 'node:crypto';
import { PLATFORM_KEYS, startCoreApi, type TestStack } from '../../support/test-stack';
import { expectWholeTrace, flushTraces, readTraces, startOtlpReceiver, startShop, STACK_ENV, tracedOwner, turnOnEveryChannel } from './trace-support';

const TOOL_SECRET = `shop_${randomBytes(12).toString('hex')}`;

/**
 * The same turns with the AI service run apart (its own app, reached over HTTP): the core API's spans and the AI
 * service's join by trace id (W3C traceparent between them), so each turn's stored trace is whole; both export
 * over OTLP/HTTP protobuf, with message content since the operator opted in.
 */
describe('traces of chat turns (AI service apart, OTLP http/protobuf, content opted in)', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let owner: Awaited<ReturnType<typeof tracedOwner>>;
  let ids: Awaited<ReturnType<typeof turnOnEveryChannel>>;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    shop = await startShop();
    stack = await startCoreApi({
      providers: true,
      engine: 'remote',
      env: { ...STACK_ENV, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_GENAI_CAPTURE_CONTENT: 'true' },
    });
    owner = await tracedOwner(stack, shop.url, TOOL_SECRET);
    ids = await turnOnEveryChannel(stack, owner);
    await flushTraces(stack);
    // A stack, a document to embed and three turns: more than the default minute on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
    await shop?.close();
  });

  it('stores each turn whole: the AI service’s model rounds and tool call under the core API’s turn, one trace id', async () => {
    const traces = await readTraces(stack, [ids.api, ids.widget, ids.hosted]);
    expectWholeTrace(traces.get(ids.api), { channel: 'api', documentId: owner.documentId, tool: true });
    expectWholeTrace(traces.get(ids.widget), { channel: 'widget', documentId: owner.documentId, tool: false });
    expectWholeTrace(traces.get(ids.hosted), { channel: 'widget', documentId: owner.documentId, tool: false });
    const spans = traces.get(ids.api)!.spans;
    const engine = spans.find((s) => s.name === 'chat.engine')!;
    expect(engine.parentSpanId).toBe(spans[0]!.spanId);
    for (const s of spans.filter((x) => x.name.startsWith('chat ') || x.name.startsWith('execute_tool'))) expect(s.parentSpanId).toBe(engine.spanId);
  });

  it('exports both services’ spans over OTLP protobuf in one trace, with content on the opt-in', async () => {
    const apiTrace = (await readTraces(stack, [ids.api])).get(ids.api)!;
    const exported = receiver.spans.filter((s) => s.traceId === apiTrace.traceId);
    expect(exported.map((s) => s.spanId).sort()).toEqual(apiTrace.spans.map((s) => s.spanId).sort());
    expect(new Set(exported.map((s) => s.service))).toEqual(new Set(['core-api', 'ai-service']));
    expect(receiver.headers.every((h) => h['content-type'] === 'application/x-protobuf')).toBe(true);
    const rounds = exported.filter((s) => s.name.startsWith('chat '));
    expect(rounds.every((s) => s.service === 'ai-service')).toBe(true);
    expect(rounds[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': expect.any(String), 'gen_ai.usage.input_tokens': expect.any(Number), 'gen_ai.usage.output_tokens': expect.any(Number) });
    expect(String(rounds[0]!.attributes['gen_ai.input.messages'])).toContain('Zephyr-9');
    expect(exported.find((s) => s.name === 'execute_tool order_status')!.attributes['gen_ai.tool.call.arguments']).toBe('{"order":"7"}');
    const stored = JSON.stringify(await stack.infra.dataSource.query('SELECT * FROM trace_spans'));
    for (const text of [stored, receiver.bodies.join('\n')]) {
      for (const secret of [TOOL_SECRET, owner.key.key, ...Object.values(PLATFORM_KEYS), stack.config.aiServiceToken]) expect(text).not.toContain(secret);
    }
  });
});
