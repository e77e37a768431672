import { randomBytes } from 'node:crypto';
import { PLATFORM_KEYS, startCoreApi, type TestStack } from '../../support/test-stack';
import { expectWholeTrace, flushTraces, readTraces, startOtlpReceiver, startShop, STACK_ENV, tracedOwner, turnOnEveryChannel } from './trace-support';

const TOOL_SECRET = `shop_${randomBytes(12).toString('hex')}`;

/**
 * Every turn traced (issue 46), the engine in the core API's process: a turn on the public API (with retrieval
 * and a tool call), the widget and the hosted page each have a stored trace, read through the TraceReader; the
 * spans also go out over OTLP/HTTP as JSON (without message content: no opt-in), and no secret is in either.
 */
describe('traces of chat turns (engine in-process, OTLP http/json)', () => {
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
      engine: 'in-process',
      env: { ...STACK_ENV, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=abc%20123', OTEL_SERVICE_NAME: 'platform-under-test', METRICS_TOKEN: 'metrics-token-for-traces-0123' },
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

  it('stores a whole trace for the turn of each channel, keyed to its answer', async () => {
    const traces = await readTraces(stack, [ids.api, ids.widget, ids.hosted, '00000000-0000-4000-8000-000000000000']);
    expect([...traces.keys()].sort()).toEqual([ids.api, ids.widget, ids.hosted].sort());
    expectWholeTrace(traces.get(ids.api), { channel: 'api', documentId: owner.documentId, tool: true });
    expectWholeTrace(traces.get(ids.widget), { channel: 'widget', documentId: owner.documentId, tool: false });
    expectWholeTrace(traces.get(ids.hosted), { channel: 'widget', documentId: owner.documentId, tool: false });
    // The policies' work is in the trace too (keys and quota, plugins' hooks).
    expect(traces.get(ids.api)!.spans.map((s) => s.name)).toEqual(expect.arrayContaining(['policy keys-and-quota', 'policy plugins', 'policy knowledge']));
  });

  it('exports the spans over OTLP/HTTP JSON with the GenAI attributes, the headers and the service name, and no content without the opt-in', async () => {
    const apiTrace = (await readTraces(stack, [ids.api])).get(ids.api)!;
    const exported = receiver.spans.filter((s) => s.traceId === apiTrace.traceId);
    expect(exported.map((s) => s.spanId).sort()).toEqual(apiTrace.spans.map((s) => s.spanId).sort());
    expect(exported.every((s) => s.service === 'platform-under-test')).toBe(true);
    expect(receiver.headers.every((h) => h['x-collector-token'] === 'abc 123' && String(h['content-type']).includes('json'))).toBe(true);
    const round = exported.find((s) => s.name.startsWith('chat '))!;
    expect(round.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': expect.any(String), 'gen_ai.usage.input_tokens': expect.any(Number), 'gen_ai.usage.output_tokens': expect.any(Number) });
    const tool = exported.find((s) => s.name === 'execute_tool order_status')!;
    expect(tool.attributes['gen_ai.tool.name']).toBe('order_status');
    for (const s of receiver.spans) {
      for (const key of ['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result', 'gen_ai.input.messages', 'gen_ai.output.messages', 'app.retrieval.query']) expect(s.attributes).not.toHaveProperty(key);
    }
    expect(receiver.bodies.join('\n')).not.toContain('Zephyr-9');
  });

  it('counts the spans written and dropped in /metrics', async () => {
    const res = await stack.client.get('/metrics', { token: 'metrics-token-for-traces-0123' });
    expect(res.text).toMatch(/^trace_spans_dropped_total 0$/m);
    expect(Number(/^trace_spans_written_total (\d+)$/m.exec(res.text)![1])).toBeGreaterThan(10);
  });

  it('keeps every secret out of the stored spans and the export', async () => {
    const stored = JSON.stringify(await stack.infra.dataSource.query('SELECT * FROM trace_spans'));
    for (const text of [stored, receiver.bodies.join('\n')]) {
      for (const secret of [TOOL_SECRET, owner.key.key, ...Object.values(PLATFORM_KEYS), stack.config.aiServiceToken]) expect(text).not.toContain(secret);
    }
  });
});
