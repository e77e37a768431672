import { performance } from 'node:perf_hooks';
import { cpuUsage } from 'node:process';
import { openDatabase } from '../../adapters/persistence/data-source';
import { TypeOrmTraceStore } from '../../adapters/persistence/traces/type-orm-trace.store';
import type { ChatRequest, LlmProvider } from '../../core/ai/ports/llm-provider.port';
import { ATTR } from '../../core/traces/domain/attributes';
import type { RecordedSpan } from '../../core/traces/domain/span';
import type { TraceStore } from '../../core/traces/ports/trace-store.port';
import { tracedProvider } from '../../core/traces/use-cases/traced-chat';
import { TraceWriter } from '../../core/traces/use-cases/trace-writer';
import { Tracer } from '../../core/traces/use-cases/tracer';
import { pgliteThreadSetting } from '../../apps/shared/config';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** A provider that answers at once: what is measured is the recording around it, not a model. */
const instant: LlmProvider = {
  id: 'provider_a',
  listModels: async () => [],
  chat: async () => ({ content: 'ok', usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 }, model: 'gpt-4o-mini' }),
  async *stream() {
    yield { type: 'delta', text: 'ok' };
    yield { type: 'usage', usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 } };
  },
};
const request: ChatRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], settings: { temperature: 0.7, maxTokens: 256, topP: 1 }, apiKey: 'k' };

/**
 * One turn's recording as the platform makes it (root span, five policy spans, retrieval with eight hits, a
 * streamed model round through the traced provider, a tool call, finish into the writer's queue), less the work
 * it wraps. Answers the CPU time one turn spends on its trace.
 */
async function recordOneTurn(tracer: Tracer): Promise<void> {
  const trace = tracer.startTurn('chat.turn', { [ATTR.operationName]: 'chat', [ATTR.channel]: 'api', [ATTR.conversationId]: 'c0ffee00-0000-4000-8000-000000000000' })!;
  for (const name of ['model-config', 'keys-and-quota', 'plugins', 'knowledge', 'analytics']) trace.span(`policy ${name}`, { [ATTR.policyName]: name }).end();
  const hits = Array.from({ length: 8 }, (_, i) => i);
  trace.span('retrieval', { [ATTR.retrievalQuery]: 'hi', [ATTR.retrievalMode]: 'hybrid' })
    .set(ATTR.retrievalHitCount, 8)
    .set(ATTR.retrievalHitDocuments, hits.map((i) => `doc-${i}`))
    .set(ATTR.retrievalHitScores, hits.map((i) => 1 / (i + 1)))
    .end();
  for await (const _ of tracedProvider(instant, trace).stream(request)) void _;
  trace.span('execute_tool lookup', { [ATTR.toolName]: 'lookup', [ATTR.toolArguments]: '{"order":"7"}' }).set(ATTR.toolResult, '{"status":"shipped"}').set(ATTR.toolResultSize, 20).end();
  trace.root.set(ATTR.inputTokens, 12).set(ATTR.outputTokens, 3);
  trace.keyTo({ messageId: 'c0ffee00-0000-4000-8000-000000000001', conversationId: 'c0ffee00-0000-4000-8000-000000000000' });
  trace.finish();
}

/** The same turn with tracing off: the provider call alone. */
async function untracedTurn(): Promise<void> {
  for await (const _ of instant.stream(request)) void _;
}

const discard: TraceStore = { insert: async () => undefined, forMessages: async () => new Map(), deleteStartedBefore: async () => 0 };

/** CPU per turn (p50, p90, ms) of a turn's recording, against the same turn untraced: `turns` each, interleaved. */
export async function recordingCost(turns: number): Promise<{ on: { p50: number; p90: number }; off: { p50: number; p90: number }; spans: number }> {
  const writer = new TraceWriter({ store: discard, maxQueue: 1_000_000 });
  const tracer = new Tracer({ enabled: true, sink: writer, captureContent: false, cost: () => 0.0001 });
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < turns + 200; i++) {
    let t = performance.now();
    await untracedTurn();
    const offMs = performance.now() - t;
    t = performance.now();
    await recordOneTurn(tracer);
    const onMs = performance.now() - t;
    if (i >= 200) {
      off.push(offMs);
      on.push(onMs);
    }
  }
  await writer.flush();
  on.sort((a, b) => a - b);
  off.sort((a, b) => a - b);
  return { on: { p50: percentile(on, 0.5), p90: percentile(on, 0.9) }, off: { p50: percentile(off, 0.5), p90: percentile(off, 0.9) }, spans: writer.written / (turns + 200) };
}

/**
 * The writer at `turnsPerSecond` turns a second for `seconds` (11 spans a turn, as `recordOneTurn` makes), on the
 * embedded PGlite (or BENCH_DATABASE_URL): spans written a second, dropped, the deepest the queue got against its
 * bound, the time to drain after the load, and this process's CPU per turn (recording and writing).
 */
export async function writerThroughput(turnsPerSecond: number, seconds: number, maxQueue: number) {
  const db = await openDatabase(process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL, schema: `bench_traces_${process.pid}` } : { pgliteThread: pgliteThreadSetting() });
  try {
    const writer = new TraceWriter({ store: new TypeOrmTraceStore(db.dataSource), maxQueue });
    let deepest = 0;
    const sink = { submit: (spans: readonly RecordedSpan[]) => { writer.submit(spans); deepest = Math.max(deepest, writer.queued); }, flush: () => writer.flush() };
    const tracer = new Tracer({ enabled: true, sink, captureContent: false });
    const cpu = cpuUsage();
    const started = performance.now();
    const tickMs = 10;
    const perTick = (turnsPerSecond * tickMs) / 1000;
    let sent = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(turnsPerSecond * seconds, Math.round(((performance.now() - started) / 1000) * turnsPerSecond));
        const batch = Math.max(0, Math.min(due - sent, perTick * 4));
        const work: Promise<void>[] = [];
        for (let i = 0; i < batch; i++) work.push(recordOneTurn(tracer));
        sent += batch;
        void Promise.all(work);
        if (sent >= turnsPerSecond * seconds) {
          clearInterval(timer);
          resolve();
        }
      }, tickMs);
    });
    const loadMs = performance.now() - started;
    const writtenDuringLoad = writer.written;
    const drainStart = performance.now();
    await writer.flush();
    const drainMs = performance.now() - drainStart;
    const used = cpuUsage(cpu);
    return {
      turns: sent,
      achievedTurnsPerSecond: sent / (loadMs / 1000),
      spansPerSecondDuringLoad: writtenDuringLoad / (loadMs / 1000),
      written: writer.written,
      dropped: writer.dropped,
      deepest,
      maxQueue,
      drainMs,
      cpuMsPerTurn: (used.user + used.system) / 1000 / sent,
    };
  } finally {
    if (process.env.BENCH_DATABASE_URL) await db.dataSource.query(`DROP SCHEMA IF EXISTS "bench_traces_${process.pid}" CASCADE`).catch(() => undefined);
    await db.close();
  }
}
