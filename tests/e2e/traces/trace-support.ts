import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as protobuf from 'protobufjs';
import type { SpanView, TraceView } from '../../../core/traces/domain/trace-view';
import { TRACE_TOKENS } from '../../../apps/shared/modules/traces.tokens';
import { resolve } from '../../../apps/shared/tokens';
import { postStream, readSseEvents } from '../../support/sse';
import { paidUserWithApplication, type TestStack } from '../../support/test-stack';
import { createKey, withKey } from '../public-api/public-api-support';
import { settled, uploadDocument } from '../core-api/knowledge/knowledge-documents';

/** The part of OTLP's trace protocol (opentelemetry-proto, trace/v1 and common/v1) the tests read; unknown fields are skipped. */
const OTLP_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; }
}
message ArrayValue { repeated AnyValue values = 1; }
`;

export interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

type AnyValue = { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };
type KeyValue = { key: string; value?: AnyValue };

const valueOf = (v: AnyValue | undefined): unknown => {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
};
const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
const hex = (v: string | Uint8Array | undefined): string => (v === undefined ? '' : typeof v === 'string' ? v : Buffer.from(v).toString('hex'));

/** A local OTLP/HTTP receiver (POST /v1/traces), in JSON or protobuf, keeping what arrived. */
export async function startOtlpReceiver(): Promise<{ url: string; spans: ExportedSpan[]; headers: IncomingHttpHeaders[]; bodies: string[]; close(): Promise<void> }> {
  const request = protobuf.parse(OTLP_PROTO, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');
  const spans: ExportedSpan[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      headers.push(req.headers);
      const isJson = (req.headers['content-type'] ?? '').includes('json');
      const decoded = (isJson ? JSON.parse(body.toString('utf8')) : request.toObject(request.decode(body), { defaults: false, longs: Number })) as {
        resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: Array<Record<string, any>> }> }>;
      };
      bodies.push(JSON.stringify(decoded));
      for (const rs of decoded.resourceSpans ?? []) {
        const service = String(attributesOf(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({ service, traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId), name: s.name, attributes: attributesOf(s.attributes) });
          }
        }
      }
      res.setHeader('content-type', isJson ? 'application/json' : 'application/x-protobuf');
      res.end(isJson ? '{}' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, headers, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

/** The owner's endpoint the http tool calls. */
export async function startShop(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ order: decodeURIComponent(req.url!.split('/').pop()!), status: 'shipped' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export const STACK_ENV = { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' };

/** An owner with a document, an http tool holding a secret, an API key and the hosted page on. */
export async function tracedOwner(stack: TestStack, shopUrl: string, toolSecret: string) {
  const owner = await paidUserWithApplication(stack);
  const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
  const doc = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'drone.txt', text: 'The Zephyr-9 drone flies for 42 minutes on one charge and reaches a range of 8 kilometres.' });
  expect((await settled(stack.client, owner.token, doc.body.id)).status).toBe('ready');
  const tool = await stack.client.post(
    `/api/applications/${owner.app.id}/tools`,
    {
      name: 'order_status',
      description: 'Where an order is',
      parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'], additionalProperties: false },
      source: { type: 'http', method: 'GET', url: `${shopUrl}/orders/{{args.order}}`, headers: { Authorization: 'Bearer {{secrets.TOKEN}}' } },
      secrets: { TOKEN: toolSecret },
      timeoutMs: 5000,
    },
    { token: owner.token },
  );
  expect(tool.status).toBe(201);
  expect((await stack.client.put(`/api/applications/${owner.app.id}/agent`, { enabledTools: ['order_status'], maxToolRounds: 2 }, { token: owner.token })).status).toBe(200);
  expect((await stack.client.put(`/api/applications/${owner.app.id}`, { hostedPage: { enabled: true } }, { token: owner.token })).status).toBe(200);
  return { ...owner, key, documentId: doc.body.id as string };
}

const QUESTION = 'How long does the Zephyr-9 drone fly on one charge?';

/** One turn on each channel: the public API (with a tool call), the widget (streamed) and the hosted page (streamed). Answers their message ids. */
export async function turnOnEveryChannel(stack: TestStack, owner: Awaited<ReturnType<typeof tracedOwner>>) {
  const api = await stack.client.post('/api/v1/chat', { message: `${QUESTION} And my order? [[call order_status {"order":"7"}]]`, applicationId: owner.app.id }, withKey(owner.key.key));
  expect(api.status).toBe(200);
  expect(api.body.toolCalls).toEqual([expect.objectContaining({ name: 'order_status', isError: false })]);
  const widget = await readSseEvents(await postStream(`${stack.listening.url}/api/v1/chat/stream`, { message: QUESTION, applicationId: owner.app.id }, { 'X-API-Key': owner.key.key, 'X-Client': 'widget' }));
  const widgetDone = widget.at(-1);
  expect(widgetDone).toMatchObject({ type: 'done' });
  const hosted = await readSseEvents(await postStream(`${stack.listening.url}/api/hosted/${owner.app.slug}/chat/stream`, { message: QUESTION }, {}));
  const hostedDone = hosted.at(-1);
  expect(hostedDone).toMatchObject({ type: 'done' });
  return { api: api.body.message.id as string, widget: widgetDone.messageId as string, hosted: hostedDone.messageId as string };
}

/** Writes (and exports) what the processes of the stack have queued. */
export async function flushTraces(stack: TestStack): Promise<void> {
  for (const app of [stack.core, stack.ai?.app]) if (app) await resolve(app.container, TRACE_TOKENS.Sink).flush();
}

export const readTraces = (stack: TestStack, ids: string[]) => resolve(stack.core.container, TRACE_TOKENS.Reader).forMessages(ids);

const within = (child: SpanView, parent: SpanView) => {
  const start = Date.parse(child.startTime);
  const parentStart = Date.parse(parent.startTime);
  // Times are kept to the microsecond; a millisecond of slack for the rounding of two processes' clocks.
  return start >= parentStart - 1 && start + child.durationMs <= parentStart + parent.durationMs + 1;
};

/** The trace of a turn: the root `chat.turn`, retrieval with its hits, model rounds and (with `tool`) the tool call, each nested in the turn. */
export function expectWholeTrace(trace: TraceView | undefined, expected: { channel: string; documentId: string; tool: boolean }) {
  expect(trace).toBeDefined();
  const spans = trace!.spans;
  const root = spans[0]!;
  expect(root).toMatchObject({ name: 'chat.turn', parentSpanId: null, status: 'ok' });
  expect(root.attributes).toMatchObject({ 'app.channel': expected.channel, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': expect.any(String), 'gen_ai.usage.input_tokens': expect.any(Number) });
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  // Every span hangs, through its parents, from the turn's root, and lies within its parent's time.
  for (const span of spans.slice(1)) {
    const parent = byId.get(span.parentSpanId!);
    expect(parent).toBeDefined();
    expect(within(span, parent!)).toBe(true);
    let top = span;
    while (top.parentSpanId) top = byId.get(top.parentSpanId)!;
    expect(top).toBe(root);
  }
  const retrieval = spans.find((s) => s.name === 'retrieval');
  expect(retrieval?.attributes).toMatchObject({ 'app.retrieval.hit_count': expect.any(Number), 'app.retrieval.mode': expect.any(String) });
  expect(retrieval!.attributes['app.retrieval.hits.document_id']).toContain(expected.documentId);
  expect((retrieval!.attributes['app.retrieval.hits.score'] as number[])[0]).toBeGreaterThan(0);
  const rounds = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat' && s.name.startsWith('chat '));
  expect(rounds.length).toBe(expected.tool ? 2 : 1);
  for (const round of rounds) {
    expect(round.attributes).toMatchObject({
      'gen_ai.provider.name': expect.stringMatching(/^provider_[a-d]$/),
      'gen_ai.request.model': expect.any(String),
      'gen_ai.usage.input_tokens': expect.any(Number),
      'gen_ai.usage.output_tokens': expect.any(Number),
      'gen_ai.server.time_to_first_token': expect.any(Number),
      'gen_ai.response.finish_reasons': [expect.stringMatching(/^(stop|tool_calls)$/)],
    });
  }
  const tool = spans.find((s) => s.name === 'execute_tool order_status');
  if (!expected.tool) return expect(tool).toBeUndefined();
  expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.name': 'order_status', 'gen_ai.tool.call.arguments': '{"order":"7"}', 'app.tool.result_size': expect.any(Number) });
  expect(tool!.attributes['gen_ai.tool.call.result']).toContain('shipped');
  // The call ran between the two model rounds.
  expect(Date.parse(tool!.startTime)).toBeGreaterThanOrEqual(Date.parse(rounds[0]!.startTime));
}
