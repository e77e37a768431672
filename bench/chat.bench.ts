import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable, rowOf, type Row } from './support/format';
import { cpuPerRequest } from './support/cpu';
import { policyCosts } from './support/policy-costs';
import { startServerProcess, stopAll } from './support/processes';
import { pgliteThreadSetting } from '../apps/shared/config';
import { recordingCost, writerThroughput } from './support/trace-costs';

/**
 * `npm run bench:chat`: what the platform adds to a provider's own latency (issue 3).
 *
 * (a) straight to the emulator, (b) through a bare Koa pass-through, (c) the platform's chat with auth and
 * persistence (core API with its chat engine in-process as `npm start` runs it; on PostgreSQL, or with
 * BENCH_ENGINE=http, over HTTP to the AI service); then the time to the first streamed chunk and whether chunks
 * arrive one by one. Each server runs in its own process; the emulator answers after a fixed delay. Last, in this
 * process, what each chat policy (and the access check and the turn's events) costs with its feature unused.
 *
 * Traces (issue 46): (c) runs twice side by side, on a platform with tracing on (the default) and on one with
 * TRACES_ENABLED=false, and the last part measures a turn's recording alone and the trace writer at 1,000 turns/s
 * against its queue bound. BENCH_TRACES=off skips all three.
 *
 * Resilience (docs/connections.md): the same platform also serves two applications whose default model config
 * names the same model, one plain and one with a retry policy and a fallback; (d) runs the same load against
 * both in the same run, and their streams too, so what a policy costs while nothing fails is read side by side.
 * BENCH_RESILIENCE=off skips them.
 */
const TRACES = process.env.BENCH_TRACES !== 'off';
const RESILIENCE = process.env.BENCH_RESILIENCE !== 'off';
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CHUNK_DELAY_MS = 10;
const STREAM_RUNS = 30;
// BENCH_CONNECTIONS=1: only the one-client runs (comma-separated; default 1,32).
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,32').split(',').map(Number);
// Streams run first unmeasured, as many as are measured: a server in use has its streaming code warm.
const STREAM_WARMUP = Number(process.env.BENCH_STREAM_WARMUP ?? STREAM_RUNS);

async function main() {
  const emulator = await startServerProcess<{ url: string; baseUrls: Record<string, string> }>('support/emulator.server.ts', { BENCH_DELAY_MS: String(DELAY_MS) });
  const passthrough = await startServerProcess<{ url: string }>('support/passthrough.server.ts', { BENCH_UPSTREAM: emulator.info.baseUrls.provider_a! });
  // Set BENCH_DATABASE_URL=postgres://… to run the platform on PostgreSQL instead of the embedded PGlite.
  // On PGlite the platform is one process, as `npm start` runs it (the embedded database allows one
  // process). On PostgreSQL the AI service runs in a process of its own, as the apps are deployed apart
  // (docker/compose.yaml), sharing the run's schema and DATA_DIR (for the generated service token).
  const shared: Record<string, string> = { BENCH_PROVIDER_URLS: JSON.stringify(emulator.info.baseUrls) };
  let aiService: Awaited<ReturnType<typeof startServerProcess<{ url: string }>>> | undefined;
  if (process.env.BENCH_DATABASE_URL) {
    shared.BENCH_DATA_DIR = mkdtempSync(join(tmpdir(), 'bench-platform-'));
    shared.BENCH_SCHEMA = `bench_${randomBytes(4).toString('hex')}`;
    aiService = await startServerProcess<{ url: string }>('support/ai-service.server.ts', shared);
  }
  const platform = await startServerProcess<{ coreUrl: string; token: string; conversations: string[]; configured: Record<'plain' | 'resilient', string[]> }>('support/platform.server.ts', {
    ...shared,
    ...(aiService ? { BENCH_AI_SERVICE_URL: aiService.info.url } : {}),
    ...(RESILIENCE ? { BENCH_CONFIGS: 'on' } : {}),
  });
  // The same platform with tracing off, for (c) side by side (an AI service apart keeps tracing on in both).
  const untraced = TRACES
    ? await startServerProcess<{ coreUrl: string; token: string; conversations: string[] }>('support/platform.server.ts', {
        ...shared,
        ...(shared.BENCH_SCHEMA ? { BENCH_SCHEMA: `${shared.BENCH_SCHEMA}_off` } : {}),
        ...(aiService ? { BENCH_AI_SERVICE_URL: aiService.info.url } : {}),
        TRACES_ENABLED: 'false',
      })
    : undefined;
  const children = [emulator.child, passthrough.child, platform.child, ...(aiService ? [aiService.child] : []), ...(untraced ? [untraced.child] : [])];
  try {
    const providerBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const direct = { url: `${emulator.info.baseUrls.provider_a}/chat/completions`, headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-0000' }, body: providerBody };
    const viaKoa = { url: `${passthrough.info.url}/chat`, headers: { 'content-type': 'application/json' }, body: providerBody };
    let next = 0;
    const conversations = platform.info.conversations;
    const full = {
      url: platform.info.coreUrl,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.info.token}` },
      body: JSON.stringify({ content: 'hi', provider: 'provider_a', model: 'gpt-4o-mini' }),
      path: () => `/api/conversations/${conversations[next++ % conversations.length]}/messages`,
    };

    // (d): the same turn with the model config choosing the model (no provider in the request), plain or resilient.
    const configuredTarget = (arm: 'plain' | 'resilient', kind: 'messages' | 'stream' = 'messages') => {
      let n = 0;
      const ids = platform.info.configured[arm];
      return { ...full, body: JSON.stringify({ content: 'hi' }), path: () => `/api/conversations/${ids[n++ % ids.length]}/${kind}` };
    };

    const database = process.env.BENCH_DATABASE_URL
      ? 'PostgreSQL (BENCH_DATABASE_URL)'
      : `embedded PGlite ${pgliteThreadSetting() ? 'on its own thread (PGLITE_THREAD=on, the default)' : 'on the event loop (PGLITE_THREAD=off)'}`;
    const engine = aiService ? 'the AI service in its own process, over HTTP' : process.env.BENCH_ENGINE === 'http' ? 'the AI service in the same process, over HTTP (BENCH_ENGINE=http)' : 'the chat engine in-process, as npm start runs it';
    console.log(`Chat benchmark: emulator delay ${DELAY_MS} ms, ${DURATION_S} s per run, ${database}, ${engine}, node ${process.version}`);
    const results: Record<number, Row[]> = {};
    for (const connections of CONNECTIONS) {
      await load(direct, connections, 2); // warm-up
      const a = rowOf('(a) emulator direct', await load(direct, connections, DURATION_S));
      const b = rowOf('(b) bare Koa pass-through', await load(viaKoa, connections, DURATION_S));
      await load(full, connections, 2);
      const servers = [platform.child.pid!, ...(aiService ? [aiService.child.pid!] : [])];
      const measured = await cpuPerRequest(servers, !!process.env.BENCH_DATABASE_URL, () => load(full, connections, DURATION_S));
      const c = rowOf(`(c) core API -> ${aiService || process.env.BENCH_ENGINE === 'http' ? 'AI service -> ' : ''}emulator`, measured.result);
      results[connections] = [a, b, c];
      const rows = [a, b, c];
      let offCpu: number | undefined;
      if (untraced) {
        let n = 0;
        const off = { ...full, url: untraced.info.coreUrl, headers: { ...full.headers, authorization: `Bearer ${untraced.info.token}` }, path: () => `/api/conversations/${untraced.info.conversations[n++ % untraced.info.conversations.length]}/messages` };
        await load(off, connections, 2);
        const offMeasured = await cpuPerRequest([untraced.child.pid!], false, () => load(off, connections, DURATION_S));
        rows.push(rowOf('(c) the same, TRACES_ENABLED=false', offMeasured.result));
        offCpu = offMeasured.serverMs[0];
      }
      printTable(`POST a chat message, ${connections} concurrent client(s)`, rows, b);
      if (RESILIENCE) await compareResilience(configuredTarget, connections, [platform.child.pid!, ...(aiService ? [aiService.child.pid!] : [])], !!process.env.BENCH_DATABASE_URL, b);
      // autocannon's p50 is in whole milliseconds; the means are not, and at one client they are what a turn costs.
      console.log(`mean latency: (a) ${meanOf(a)} (b) ${meanOf(b)} (c) ${meanOf(c)} ms; (c) adds ${(c.mean - b.mean).toFixed(2)} ms over (b)`);
      // Where a turn's cost lands (Linux /proc): the platform's processes and, on a local PostgreSQL, the
      // database server (its background processes included).
      const [core, ai] = measured.serverMs;
      console.log(
        aiService
          ? `(c) CPU per request: core API ${core!.toFixed(2)} ms, AI service ${ai!.toFixed(2)} ms, PostgreSQL server ${measured.postgresMs.toFixed(2)} ms`
          : `(c) CPU per request: platform process ${core!.toFixed(2)} ms (the embedded PGlite included)`,
      );
      if (offCpu !== undefined && !aiService) {
        console.log(`tracing on vs off: CPU per request ${core!.toFixed(3)} vs ${offCpu.toFixed(3)} ms (${(core! - offCpu).toFixed(3)} ms for the trace, its batched write included); p50 ${c.p50} vs ${rows[3]!.p50} ms`);
      }
    }
    if (results[32]) {
      const [, b32, c32] = results[32];
      console.log(`\nAt 32 clients the full path adds ${(c32!.p50 - b32!.p50).toFixed(2)} ms at p50 over the pass-through (target < 2 ms)` +
        ` and keeps ${((c32!.rps / b32!.rps) * 100).toFixed(0)}% of its requests/s (target > 50%).`);
    }

    await fetch(`${emulator.info.url}/__emulator/behaviour`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delayMs: 0, chunkDelayMs: CHUNK_DELAY_MS }) });
    const streamBody = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'tell me a story about benchmarks and streams' }] });
    const sDirect = await streams(() => post(direct.url, direct.headers, streamBody));
    const sKoa = await streams(() => post(`${passthrough.info.url}/stream`, viaKoa.headers, streamBody));
    const sFull = await streams(() =>
      post(`${platform.info.coreUrl}${full.path().replace('/messages', '/stream')}`, full.headers, JSON.stringify({ content: 'tell me a story about benchmarks and streams', provider: 'provider_a' })),
    );
    console.log(`\nStreams (${STREAM_RUNS} sequential runs after ${STREAM_WARMUP} unmeasured, ${CHUNK_DELAY_MS} ms between provider chunks): time to first chunk, median`);
    for (const [name, s] of [['(a) emulator direct', sDirect], ['(b) bare Koa pass-through', sKoa], ['(c) full path', sFull]] as const) {
      console.log(`${name.padEnd(44)}${s.ttfc.toFixed(2).padStart(8)} ms   chunks ${s.chunks}, arriving in ${s.reads} separate reads`);
    }
    console.log(`The full path adds ${(sFull.ttfc - sKoa.ttfc).toFixed(2)} ms to the first chunk over the pass-through (target < 1 ms);` +
      ` chunks ${sFull.reads >= sFull.chunks ? 'arrive one by one' : 'are batched'}.`);
    if (RESILIENCE) {
      // Alternated turn by turn, so both arms see the same machine.
      const storyBody = JSON.stringify({ content: 'tell me a story about benchmarks and streams' });
      const arms = { plain: configuredTarget('plain', 'stream'), resilient: configuredTarget('resilient', 'stream') };
      const [sPlain, sResilient] = await streamsSideBySide(
        () => post(`${platform.info.coreUrl}${arms.plain.path()}`, full.headers, storyBody),
        () => post(`${platform.info.coreUrl}${arms.resilient.path()}`, full.headers, storyBody),
      );
      console.log(`${'(d) model config, no retry policy'.padEnd(44)}${sPlain.ttfc.toFixed(2).padStart(8)} ms   chunks ${sPlain.chunks}, arriving in ${sPlain.reads} separate reads`);
      console.log(`${'(d) model config, retries and a fallback'.padEnd(44)}${sResilient.ttfc.toFixed(2).padStart(8)} ms   chunks ${sResilient.chunks}, arriving in ${sResilient.reads} separate reads`);
      console.log(`A retry policy with a fallback, nothing failing: ${(sResilient.ttfc - sPlain.ttfc).toFixed(2)} ms to the first chunk over the same config without it (target: no more).`);
    }
  } finally {
    stopAll(children);
  }
  if (process.env.BENCH_POLICIES !== 'off') await printPolicyCosts();
  if (TRACES) await printTraceCosts();
}

/** A turn's recording alone (in this process), and the trace writer at 1,000 turns/s against its queue bound. */
async function printTraceCosts(): Promise<void> {
  const turns = Number(process.env.BENCH_TRACE_TURNS ?? 2000);
  const cost = await recordingCost(turns);
  console.log(`\nA turn's trace recorded (${cost.spans.toFixed(0)} spans: root, 5 policies, retrieval, a streamed model round, a tool call; into the write queue), ${turns} turns after 200 unmeasured`);
  console.log(`| | p50 ms | p90 ms |\n|---|---|---|`);
  console.log(`| turn untraced | ${cost.off.p50.toFixed(4)} | ${cost.off.p90.toFixed(4)} |\n| turn traced | ${cost.on.p50.toFixed(4)} | ${cost.on.p90.toFixed(4)} |`);
  console.log(`The trace adds ${(cost.on.p50 - cost.off.p50).toFixed(4)} ms at p50 (target <= 0.3 ms)`);
  const seconds = Number(process.env.BENCH_TRACE_SECONDS ?? 5);
  for (const maxQueue of [20_000, 2_000]) {
    const w = await writerThroughput(1000, seconds, maxQueue);
    console.log(
      `Trace writer at ${w.achievedTurnsPerSecond.toFixed(0)} turns/s for ${seconds} s (queue bound ${w.maxQueue} spans, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}): ` +
        `${w.spansPerSecondDuringLoad.toFixed(0)} spans/s written during the load, ${w.written} written, ${w.dropped} dropped, deepest queue ${w.deepest}, drained ${w.drainMs.toFixed(0)} ms after, ` +
        `${w.cpuMsPerTurn.toFixed(3)} ms CPU per turn (recording and writing)`,
    );
  }
}

/** Each step of a turn with its feature unused, in this process (bench/support/policy-costs.ts). BENCH_POLICIES=off skips it. */
async function printPolicyCosts(): Promise<void> {
  const turns = Number(process.env.BENCH_POLICY_TURNS ?? 400);
  const steps = await policyCosts(turns);
  console.log(`\nEach step of a chat turn with its feature unused (in-process, embedded PGlite, ${turns} turns after 50 unmeasured)`);
  console.log('| step | p50 ms | p90 ms | statements |\n|---|---|---|---|');
  for (const s of steps) console.log(`| ${s.step} | ${s.p50.toFixed(3)} | ${s.p90.toFixed(3)} | ${s.statements} |`);
}

/**
 * (d): the same load against the application whose model config has no retry policy and the one whose config
 * has retries and a fallback, in the same platform process, one after the other, each measured in CPU per turn
 * (the figure that tells what the resilient path adds while nothing fails; latency follows the machine).
 */
async function compareResilience(
  target: (arm: 'plain' | 'resilient') => { url: string; headers: Record<string, string>; body: string; path: () => string },
  connections: number,
  servers: number[],
  withPostgres: boolean,
  floor: Row,
): Promise<void> {
  const rows: Row[] = [];
  const cpu: Record<string, number> = {};
  for (const [arm, label] of [['plain', '(d) model config, no retry policy'], ['resilient', '(d) model config, retries and a fallback']] as const) {
    const t = target(arm);
    // The arm is what it says: only a turn with a policy names who answered.
    const probe = (await (await post(`${t.url}${t.path()}`, t.headers, t.body)).json()) as { answeredBy?: unknown };
    if ((probe.answeredBy !== undefined) !== (arm === 'resilient')) throw new Error(`(d) ${arm}: the turn ${probe.answeredBy ? 'ran' : 'did not run'} under a retry policy`);
    await load(t, connections, 2);
    const measured = await cpuPerRequest(servers, withPostgres, () => load(t, connections, DURATION_S));
    rows.push(rowOf(label, measured.result));
    cpu[arm] = measured.serverMs.reduce((a, b) => a + b, 0) + measured.postgresMs;
  }
  printTable(`POST a chat message through a model config, ${connections} concurrent client(s), same run`, rows, floor);
  console.log(
    `retry policy and fallback configured, nothing failing: CPU per turn ${cpu.resilient!.toFixed(3)} vs ${cpu.plain!.toFixed(3)} ms without ` +
      `(${(cpu.resilient! - cpu.plain!).toFixed(3)} ms); mean ${meanOf(rows[1]!)} vs ${meanOf(rows[0]!)} ms (target: no more)`,
  );
}

const meanOf = (row: Row): string => row.mean.toFixed(2);

function load(target: { url: string; headers: Record<string, string>; body: string; path?: () => string }, connections: number, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body: target.body,
        connections,
        duration,
        ...(target.path ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: target.path!() }) }] } : {}),
      },
      (err, result) => {
        if (err) return reject(err);
        if (result.non2xx > 0) return reject(new Error(`${target.url}: ${result.non2xx} non-2xx answers`));
        resolve(result);
      },
    );
  });
}

function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body });
}

/** Two paths' streams alternated run by run (see `streams`). */
async function streamsSideBySide(first: () => Promise<Response>, second: () => Promise<Response>): Promise<[StreamFigures, StreamFigures]> {
  const a: StreamSamples = { firsts: [], chunks: 0, reads: 0 };
  const b: StreamSamples = { firsts: [], chunks: 0, reads: 0 };
  for (let i = 0; i < STREAM_WARMUP + STREAM_RUNS; i++) {
    await oneStream(first, a, i >= STREAM_WARMUP);
    await oneStream(second, b, i >= STREAM_WARMUP);
  }
  return [figures(a), figures(b)];
}

interface StreamSamples {
  firsts: number[];
  chunks: number;
  reads: number;
}
type StreamFigures = { ttfc: number; chunks: number; reads: number };

function figures(s: StreamSamples): StreamFigures {
  const firsts = [...s.firsts].sort((x, y) => x - y);
  return { ttfc: firsts[Math.floor(firsts.length / 2)]!, chunks: s.chunks, reads: s.reads };
}

/** Median time to the first content chunk after the warm-up runs, and how many reads the chunks of the last run came in. */
async function streams(open: () => Promise<Response>): Promise<StreamFigures> {
  const samples: StreamSamples = { firsts: [], chunks: 0, reads: 0 };
  for (let i = 0; i < STREAM_WARMUP + STREAM_RUNS; i++) await oneStream(open, samples, i >= STREAM_WARMUP);
  return figures(samples);
}

/** One stream read to its end: its time to the first content chunk (kept when `measured`), its chunks and reads. */
async function oneStream(open: () => Promise<Response>, samples: StreamSamples, measured: boolean): Promise<void> {
  const started = performance.now();
  const res = await open();
  if (!res.ok) throw new Error(`stream: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let first = 0;
  let chunks = 0;
  let reads = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = decoder.decode(value);
    const contentEvents = (text.match(/"(content|delta)"\s*:\s*(\{"content":"[^"]|"[^"])/g) ?? []).length;
    if (contentEvents > 0) {
      if (!first) first = performance.now() - started;
      chunks += contentEvents;
      reads++;
    }
  }
  if (measured) samples.firsts.push(first);
  samples.chunks = chunks;
  samples.reads = reads;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
