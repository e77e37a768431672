import { randomUUID } from 'node:crypto';
import type { Database } from '../../../adapters/persistence/data-source';
import { TypeOrmTraceStore } from '../../../adapters/persistence/traces/type-orm-trace.store';
import type { RecordedSpan } from '../../../core/traces/domain/span';
import { TurnTrace } from '../../../core/traces/domain/turn-trace';
import { TraceWriter } from '../../../core/traces/use-cases/trace-writer';
import { SweepExpiredTracesUseCase } from '../../../core/traces/use-cases/sweep-expired-traces.use-case';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

describe.each(DATABASE_KINDS)('stored traces (%s)', (kind) => {
  let db: Database;
  let store: TypeOrmTraceStore;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    store = new TypeOrmTraceStore(db.dataSource);
  });
  afterAll(() => db.close());

  /** A turn recorded in two parts, as the core API and the AI service run apart record it. */
  function twoProcessTurn(messageId: string, conversationId: string): RecordedSpan[] {
    const spans: RecordedSpan[] = [];
    const sink = { submit: (s: readonly RecordedSpan[]) => void spans.push(...s) };
    const core = new TurnTrace({ sink, captureContent: false }, 'chat.turn', { 'app.channel': 'api' });
    core.span('policy knowledge').end();
    const engine = new TurnTrace({ sink, captureContent: false }, 'chat.engine', {}, { traceId: core.traceId, parentSpanId: core.root.spanId });
    engine.span('chat m', { 'gen_ai.usage.input_tokens': 12, 'gen_ai.tool.call.result': 'a\u0000b' }).end();
    engine.finish();
    core.keyTo({ messageId, conversationId });
    core.finish();
    return spans;
  }

  it('reads a message’s trace whole, root first, spans of both processes joined by trace id', async () => {
    const [m1, m2, c] = [randomUUID(), randomUUID(), randomUUID()];
    const writer = new TraceWriter({ store, batchSize: 3 });
    const first = twoProcessTurn(m1, c);
    writer.submit(first);
    writer.submit(twoProcessTurn(m2, c));
    await writer.flush();
    expect(writer.written).toBe(8);
    // A batch written twice is kept once.
    await store.insert(first);
    const traces = await store.forMessages([m1, m2, 'not-a-uuid', randomUUID()]);
    expect([...traces.keys()].sort()).toEqual([m1, m2].sort());
    const t = traces.get(m1)!;
    expect(t.spans.map((s) => s.name)).toEqual(['chat.turn', 'policy knowledge', 'chat.engine', 'chat m']);
    expect(t.spans[0]).toMatchObject({ parentSpanId: null, status: 'ok', attributes: { 'app.channel': 'api' } });
    expect(t.spans[3]!.attributes).toEqual({ 'gen_ai.usage.input_tokens': 12, 'gen_ai.tool.call.result': 'a\u0000b' });
    expect(new Set(t.spans.map((s) => s.spanId)).size).toBe(4);
    expect(t.traceId).not.toBe(traces.get(m2)!.traceId);
  });

  it('sweeps traces past their retention and keeps the others', async () => {
    const [old, fresh] = [randomUUID(), randomUUID()];
    const spans = twoProcessTurn(old, randomUUID()).map((s) => ({ ...s, startMs: s.startMs - 31 * 86_400_000 }));
    await store.insert([...spans, ...twoProcessTurn(fresh, randomUUID())]);
    const swept = await new SweepExpiredTracesUseCase({ store, clock: { now: () => new Date() }, retentionDays: 30 }).execute();
    expect(swept).toBeGreaterThanOrEqual(4);
    const left = await store.forMessages([old, fresh]);
    expect([...left.keys()]).toEqual([fresh]);
  });
});
