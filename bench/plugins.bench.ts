import { performance } from 'node:perf_hooks';
import { PLUGIN_TOKENS } from '../apps/core-api/modules/plugins.tokens';
import { resolve } from '../apps/shared/tokens';
import { PluginChatPolicy } from '../core/plugins/use-cases/plugin-chat.policy';
import type { ChatTurn } from '../core/conversations/ports/chat-policy.port';
import { paidUserWithApplication, startCoreApi, type TestStack } from '../tests/support/test-stack';

/**
 * `npm run bench:plugins` (issue 18): what plugins add to a chat turn. In one process, on the embedded
 * PGlite, against the local provider emulator (no delay), one client, requests one after another:
 * (1) a dashboard chat turn with no plugin, one `message:beforeSend` filter and five filters;
 * (2) the plugin chat policy alone (the part plugins add, without HTTP and the provider);
 * (3) one call of a plugin endpoint; (4) starting an isolate (load of the code and its declarations).
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 400);
const ROUNDS = 8;

const FILTER = `definePlugin({ hooks: { 'message:beforeSend': (m) => ({ ...m, content: m.content.replace(/darn/gi, '****') }) } })`;
const ENDPOINT = `definePlugin({ endpoints: [{ method: 'GET', path: '/ping', handler: async ({ query }) => ({ status: 200, body: { pong: query.n ?? null } }) }] })`;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const fmt = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(3)} ms  p90 ${quantile(xs, 0.9).toFixed(3)} ms  p99 ${quantile(xs, 0.99).toFixed(3)} ms  (n=${xs.length})`;

async function withPlugins(stack: TestStack, token: string, appId: string, sources: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, source] of sources.entries()) {
    const plugin = await stack.client.post('/api/plugins', { manifest: { name: `bench-${appId.slice(0, 8)}-${i}`, version: '1.0.0', main: 'index.js' }, source }, { token });
    const installed = await stack.client.post(`/api/applications/${appId}/plugins`, { pluginId: plugin.body.id }, { token });
    const activated = await stack.client.put(`/api/applications/${appId}/plugins/${installed.body.id}/activate`, undefined, { token });
    if (activated.status !== 200) throw new Error(`activation failed: ${activated.text}`);
    ids.push(plugin.body.id);
  }
  return ids;
}

async function main() {
  const stack = await startCoreApi({ providers: true, engine: 'in-process', env: { LOG_LEVEL: 'silent' } });
  try {
    const owner = await paidUserWithApplication(stack, 'pro');
    const token = owner.token;
    const apps: Record<string, string> = { 'no plugin': owner.app.id };
    for (const [label, n] of [['1 filter', 1], ['5 filters', 5]] as const) {
      const app = await stack.client.post('/api/applications', { name: label }, { token });
      apps[label] = app.body.id;
      await withPlugins(stack, token, app.body.id, Array(n).fill(FILTER));
    }
    const conversations: Record<string, string[]> = {};
    for (const [label, appId] of Object.entries(apps)) {
      conversations[label] = [];
      for (let i = 0; i < 20; i++) conversations[label]!.push((await stack.client.post('/api/conversations', { applicationId: appId }, { token })).body.id);
    }

    console.log(`Plugins benchmark: node ${process.version}, embedded PGlite, in-process engine, emulator without delay, 1 client`);
    const turns: Record<string, number[]> = Object.fromEntries(Object.keys(apps).map((k) => [k, []]));
    let n = 0;
    const turn = async (label: string) => {
      const list = conversations[label]!;
      const t0 = performance.now();
      const res = await stack.client.post(`/api/conversations/${list[n++ % list.length]}/messages`, { content: 'well darn, hello' }, { token });
      if (res.status !== 200) throw new Error(`turn failed: ${res.status} ${res.text}`);
      return performance.now() - t0;
    };
    for (const label of Object.keys(apps)) for (let i = 0; i < 30; i++) await turn(label); // warm-up
    // Interleaved rounds, so drift of the shared machine falls on every variant alike.
    for (let r = 0; r < ROUNDS; r++) for (const label of Object.keys(apps)) for (let i = 0; i < TURNS / ROUNDS; i++) turns[label]!.push(await turn(label));
    console.log('\n(1) POST /api/conversations/:id/messages, one after another');
    const base = quantile(turns['no plugin']!, 0.5);
    for (const [label, xs] of Object.entries(turns)) console.log(`  ${label.padEnd(10)} ${fmt(xs)}  Δp50 ${(quantile(xs, 0.5) - base).toFixed(3)} ms`);

    // (2) The policy alone: exactly what the plugins add to a turn.
    const policy = resolve(stack.core.container, PluginChatPolicy);
    console.log('\n(2) the plugin chat policy alone (prepare), 2,000 calls each');
    for (const [label, appId] of Object.entries(apps)) {
      const application = { id: appId } as ChatTurn['application'];
      const samples: number[] = [];
      for (let i = 0; i < 2_200; i++) {
        const t: ChatTurn = { ownerId: owner.user.id, application, conversation: { id: 'c' } as ChatTurn['conversation'], content: 'well darn, hello', source: 'dashboard' as ChatTurn['source'] };
        const t0 = performance.now();
        await policy.prepare(t, { settings: {} });
        if (i >= 200) samples.push(performance.now() - t0);
      }
      console.log(`  ${label.padEnd(10)} ${fmt(samples)}`);
    }

    // (3) One plugin endpoint call over HTTP.
    const endpointApp = (await stack.client.post('/api/applications', { name: 'endpoint' }, { token })).body.id;
    const [endpointPlugin] = await withPlugins(stack, token, endpointApp, [ENDPOINT]);
    const calls: number[] = [];
    for (let i = 0; i < 1_100; i++) {
      const t0 = performance.now();
      const res = await stack.client.get(`/api/plugins/${endpointPlugin}/endpoints/ping?n=${i}&applicationId=${endpointApp}`);
      if (res.status !== 200) throw new Error(`endpoint failed: ${res.status} ${res.text}`);
      if (i >= 100) calls.push(performance.now() - t0);
    }
    const health: number[] = [];
    for (let i = 0; i < 1_100; i++) {
      const t0 = performance.now();
      await stack.client.get('/api/health');
      if (i >= 100) health.push(performance.now() - t0);
    }
    console.log('\n(3) GET /api/plugins/:pluginId/endpoints/ping (auth: false)');
    console.log(`  endpoint   ${fmt(calls)}`);
    console.log(`  /api/health for scale  ${fmt(health)}`);

    // (4) Isolate start: a new isolate, the bootstrap, the plugin's code and its declarations.
    const sandbox = resolve(stack.core.container, PLUGIN_TOKENS.Sandbox);
    const host = { kv: {} as never, emit: () => undefined, fetch: async () => ({ status: 0, headers: {}, body: '' }), log: () => undefined };
    const starts: number[] = [];
    for (let i = 0; i < 220; i++) {
      const t0 = performance.now();
      await sandbox.load({ installationId: `bench-${i}`, source: FILTER, settings: { words: ['darn'] }, host }, { cpuMs: 1000, wallMs: 10_000 });
      if (i >= 20) starts.push(performance.now() - t0);
      sandbox.dispose(`bench-${i}`);
    }
    console.log('\n(4) isolate start (create, bootstrap, run the code, read its declarations)');
    console.log(`  isolate    ${fmt(starts)}`);
  } finally {
    await stack.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
