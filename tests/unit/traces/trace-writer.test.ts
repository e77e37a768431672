import type { RecordedSpan } from '../../../core/traces/domain/span';
import { formatTraceparent, parseTraceparent } from '../../../core/traces/domain/trace-context';
import { TurnTrace } from '../../../core/traces/domain/turn-trace';
import type { TraceStore } from '../../../core/traces/ports/trace-store.port';
import { TraceWriter } from '../../../core/traces/use-cases/trace-writer';
import { Tracer } from '../../../core/traces/use-cases/tracer';

/** A store whose inserts wait until released, to fill the writer's queue. */
function slowStore() {
  const inserted: RecordedSpan[][] = [];
  let release: () => void = () => undefined;
  let gate = new Promise<void>((r) => (release = r));
  const store: TraceStore = {
    async insert(spans) {
      await gate;
      inserted.push([...spans]);
    },
    forMessages: async () => new Map(),
    deleteStartedBefore: async () => 0,
  };
  return { store, inserted, open: () => { release(); gate = Promise.resolve(); } };
}

const span = (i: number): RecordedSpan => ({ traceId: 'a'.repeat(32), spanId: i.toString(16).padStart(16, '0'), parentSpanId: null, name: 's', startMs: 0, durationMs: 1, status: 'ok', attributes: {}, kind: 'internal' });

describe('the trace writer', () => {
  it('never waits: past its bound it drops spans and counts them, and writes the rest in batches', async () => {
    const { store, inserted, open } = slowStore();
    const writer = new TraceWriter({ store, maxQueue: 10, batchSize: 4, flushIntervalMs: 5 });
    for (let i = 0; i < 4; i++) writer.submit([span(i)]); // a full batch: the write starts (and waits on the store)
    for (let i = 4; i < 20; i++) writer.submit([span(i)]);
    // The first batch left the queue when its write started: 10 more fit, 6 are dropped.
    expect(writer.queued).toBe(10);
    expect(writer.dropped).toBe(6);
    open();
    await writer.flush();
    expect(writer.written).toBe(14);
    expect(inserted.every((b) => b.length <= 4)).toBe(true);
  });

  it('counts a batch the store refuses as dropped and goes on', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const store: TraceStore = { insert: async () => { if (fail) throw new Error('down'); }, forMessages: async () => new Map(), deleteStartedBefore: async () => 0 };
    const writer = new TraceWriter({ store, batchSize: 2, onError: (e) => errors.push(e) });
    writer.submit([span(1), span(2)]);
    await writer.flush();
    fail = false;
    writer.submit([span(3)]);
    await writer.flush();
    expect({ dropped: writer.dropped, written: writer.written, errors: errors.length }).toEqual({ dropped: 2, written: 1, errors: 1 });
  });
});

describe('a turn trace', () => {
  it('nests spans under the root, ends what is open at finish, and keys the root to the message', () => {
    const out: RecordedSpan[] = [];
    const trace = new TurnTrace({ sink: { submit: (s) => void out.push(...s) }, captureContent: false }, 'chat.turn');
    const round = trace.span('chat m', { 'gen_ai.request.model': 'm', skipped: undefined });
    round.child('provider.attempt', { 'app.provider.attempt': 1 }).fail('the provider timed out', 'upstream_timeout').end();
    trace.keyTo({ messageId: 'msg', conversationId: 'conv' });
    trace.finish();
    trace.finish();
    expect(out.map((s) => s.name)).toEqual(['provider.attempt', 'chat m', 'chat.turn']);
    const [attempt, model, root] = out;
    expect(attempt).toMatchObject({ parentSpanId: model!.spanId, status: 'error', statusMessage: 'the provider timed out', attributes: { 'error.type': 'upstream_timeout' } });
    expect(model).toMatchObject({ parentSpanId: root!.spanId, attributes: { 'gen_ai.request.model': 'm' }, conversationId: 'conv' });
    expect(root).toMatchObject({ parentSpanId: null, messageId: 'msg', conversationId: 'conv' });
    expect(root!.durationMs).toBeGreaterThanOrEqual(model!.durationMs);
  });

  it('crosses processes as a W3C traceparent, and refuses malformed ones', () => {
    const tracer = new Tracer({ enabled: true, sink: { submit: () => undefined }, captureContent: false });
    const turn = tracer.startTurn('chat.turn')!;
    const header = turn.traceparent();
    expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const engine = tracer.continueFrom(header, 'chat.engine')!;
    expect(engine.traceId).toBe(turn.traceId);
    for (const bad of [undefined, '', 'garbage', formatTraceparent('0'.repeat(32), 'a'.repeat(16)), `01-${'a'.repeat(32)}-${'b'.repeat(16)}-01`]) {
      expect(parseTraceparent(bad)).toBeUndefined();
      expect(tracer.continueFrom(bad, 'chat.engine')).toBeUndefined();
    }
    expect(new Tracer({ enabled: false, sink: { submit: () => undefined }, captureContent: false }).startTurn('chat.turn')).toBeUndefined();
  });
});
