import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startServerProcess, stopAll } from './support/processes';
import type { InstrumentReport } from './support/turn-instruments';

/**
 * `npm run bench:turn`: what one chat turn costs the platform, in measures the machine's load does not move: the
 * statements it sends to the embedded database (by text, per turn) and the CPU it spends (the whole process, the
 * database's thread included), with the main thread's top frames by self time from a CPU profile of the same window.
 *
 * The platform runs as `bench:chat` runs it (`platform.server.ts`: `npm start`'s composition, a Pro owner on the
 * platform key, tracing on unless TRACES_ENABLED=false); one client (BENCH_CLIENTS) sends BENCH_TURNS turns one after
 * another after BENCH_WARMUP unmeasured, then the window stays open BENCH_SETTLE_MS for the turns' background work (the event
 * dispatcher, the trace writer) to finish, so what a turn causes later is counted too. The sweeps that run every
 * second whatever the load are counted as well, and named, in the statement table.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 60);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 1500);
const PROFILE = process.env.BENCH_TURN_PROFILE !== 'off';
const TOP = Number(process.env.BENCH_TOP_FRAMES ?? 25);
// BENCH_CLIENTS=32: that many clients, each sending its turns one after another (BENCH_TURNS in all).
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1);

async function main() {
  const emulator = await startServerProcess<{ url: string; baseUrls: Record<string, string> }>('support/emulator.server.ts', { BENCH_DELAY_MS: process.env.BENCH_DELAY_MS ?? '5' });
  const platform = await startServerProcess<{ coreUrl: string; token: string; conversations: string[] }>('support/platform.server.ts', {
    BENCH_PROVIDER_URLS: JSON.stringify(emulator.info.baseUrls),
    BENCH_INSTRUMENT: '1',
  });
  try {
    const { coreUrl, token, conversations } = platform.info;
    let next = 0;
    const turn = async () => {
      const res = await fetch(`${coreUrl}/api/conversations/${conversations[next++ % conversations.length]}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: 'hi', provider: 'provider_a', model: 'gpt-4o-mini' }),
      });
      if (!res.ok) throw new Error(`turn: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    // Each client sends its share one after another; the clients run side by side.
    const turns = async (n: number) => {
      let left = n;
      await Promise.all(Array.from({ length: CLIENTS }, async () => {
        while (left-- > 0) await turn();
      }));
    };
    await turns(WARMUP);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const profile = PROFILE ? join(mkdtempSync(join(tmpdir(), 'bench-turn-')), 'turn.cpuprofile') : null;
    await ask(platform.child, { type: 'start', profile }, 'started');
    await turns(TURNS);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const report = (await ask(platform.child, { type: 'stop' }, 'report')).report as InstrumentReport;

    console.log(`Chat turn cost: ${TURNS} turns of ${CLIENTS} client(s), each client's one after another, after ${WARMUP} unmeasured, ${SETTLE_MS} ms settle, node ${process.version}, tracing ${process.env.TRACES_ENABLED === 'false' ? 'off' : 'on'}`);
    const rows = Object.entries(report.statements).sort((a, b) => b[1] - a[1]);
    const total = rows.reduce((n, [, c]) => n + c, 0);
    console.log(`\nStatements per turn: ${(total / TURNS).toFixed(2)} (${total} in the window)`);
    console.log('| per turn | statement |\n|---|---|');
    for (const [sql, count] of rows) console.log(`| ${(count / TURNS).toFixed(2)} | \`${sql.slice(0, 150).replace(/\|/g, '\\|')}\` |`);
    console.log(`\nCPU per turn, the whole process (the database's thread included): ${(report.cpuMs / TURNS).toFixed(2)} ms`);
    if (report.profile) printTopFrames(report.profile);
  } finally {
    stopAll([emulator.child, platform.child]);
  }
}

function ask(child: ChildProcess, message: unknown, answer: string): Promise<any> {
  return new Promise((resolve) => {
    const on = (m: any) => {
      if (m?.type !== answer) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send(message as never);
  });
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

/** The main thread's busy time and its frames by self time, each named by function and file (node_modules by package). */
function printTopFrames(path: string) {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  let all = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]!)!;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    all += dt;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += dt;
    const key = frameName(node);
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  console.log(`\nMain thread: ${(busy / TURNS).toFixed(2)} ms busy per turn (${((busy / all) * 100).toFixed(0)} % of the window); top frames by self time (profile: ${path})`);
  console.log('| self ms per turn | share of busy | frame |\n|---|---|---|');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`| ${(ms / TURNS).toFixed(3)} | ${((ms / busy) * 100).toFixed(1)} % | ${name} |`);
  }
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (!url) return functionName || '(anonymous)';
  const nm = url.lastIndexOf('node_modules/');
  const file = nm >= 0 ? url.slice(nm + 13).split('/').slice(0, url.slice(nm + 13).startsWith('@') ? 2 : 1).join('/') : url.replace(/^.*\/turn\//, '').replace(/^file:\/\//, '');
  return `${functionName || '(anonymous)'} ${file}${nm >= 0 ? '' : `:${lineNumber + 1}`}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
