import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import type { ChatRequest, ChatResult, LlmProvider, StreamPart } from '../core/ai/ports/llm-provider.port';
import { defaultAgentSettings } from '../core/tools/domain/agent-settings';
import type { Tool } from '../core/tools/domain/tool';
import type { ToolRunner } from '../core/tools/ports/tool-runner.port';
import { runToolLoop } from '../core/tools/use-cases/tool-loop';
import { KeyedToolRunners } from '../core/tools/use-cases/tool-runners';
import { AjvJsonSchemaChecker } from '../adapters/tools/ajv.json-schema-checker';
import { resolve } from '../apps/shared/tokens';
import { PluginTools } from '../core/plugins/use-cases/plugin-tools';
import { paidUserWithApplication, startCoreApi } from '../tests/support/test-stack';

/**
 * `npm run bench:tools`: the platform's own time per tool round, without the tool and without the model.
 * The model is scripted in process (it answers at once: `rounds` rounds of one call each, then text), so
 * what is timed is the loop itself: offering the tools, reading the calls, checking each against the
 * enabled set and its schema (Ajv), the timeout and cap around the call, and feeding the result back.
 * Two arms: (1) a tool answering at once in process; (2) a plugin tool in the isolated-vm sandbox (the
 * plugin runtime of a real core-api on the embedded PGlite), whose handler only joins two strings, so
 * what the arm adds is the platform's sandbox path: the active-installation lookup, the isolate call
 * with its CPU and wall limits, and the copy of arguments and result across the isolate boundary.
 * Turns run one after another; the figure is per tool round.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 2_000);
const ROUNDS = 3;

/** A model that calls `lookup` ROUNDS times, then answers; no I/O. */
class ScriptedModel implements LlmProvider {
  readonly id = 'provider_a' as const;
  async chat(): Promise<ChatResult> {
    throw new Error('not used');
  }
  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    const calls = request.messages.filter((m) => m.role === 'tool').length;
    if (calls < ROUNDS && request.toolChoice !== 'none') {
      yield { type: 'tool_call', call: { id: `call_${calls}`, name: 'lookup', arguments: JSON.stringify({ query: `order ${calls}`, limit: 3 }) } };
    } else {
      yield { type: 'delta', text: 'Done.' };
    }
    yield { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } };
  }
  async listModels(): Promise<string[]> {
    return [];
  }
}

const instant: ToolRunner = { run: async (_tool, args) => `found ${String(args.query)}` };

const LOOKUP_PLUGIN = `definePlugin({ tools: [{ name: 'lookup', description: 'Looks an order up', parameters: ${JSON.stringify({ type: 'object', properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['query'], additionalProperties: false })}, handler: ({ query }) => 'found ' + query }] })`;

const tool: Tool = {
  id: randomUUID(),
  ownerId: randomUUID(),
  applicationId: randomUUID(),
  name: 'lookup',
  description: 'Looks an order up',
  parameters: { type: 'object', properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1, maximum: 10 } }, required: ['query'], additionalProperties: false },
  source: { type: 'builtin', builtin: 'search_knowledge' },
  timeoutMs: 5_000,
  secretsSealed: {},
  createdAt: new Date(),
  updatedAt: new Date(),
};

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function turn(deps: Parameters<typeof runToolLoop>[0], provider: LlmProvider, tool: Tool): Promise<number> {
  const started = performance.now();
  const loop = runToolLoop(deps, {
    provider,
    request: { model: 'scripted', messages: [{ role: 'user', content: 'Where are my orders?' }], settings: { temperature: 0, maxTokens: 100, topP: 1 }, apiKey: 'none' },
    tools: [tool],
    settings: { ...defaultAgentSettings(), enabledTools: ['lookup'], maxToolRounds: 5 },
    applicationId: tool.applicationId,
    ownerId: tool.ownerId,
  });
  let next = await loop.next();
  while (!next.done) next = await loop.next();
  if (next.value.toolCalls.length !== ROUNDS || next.value.toolCalls.some((c) => c.isError)) throw new Error('the scripted turn did not run as planned');
  return (performance.now() - started) / ROUNDS;
}

const fmt = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(3)} ms  p90 ${quantile(xs, 0.9).toFixed(3)} ms  p99 ${quantile(xs, 0.99).toFixed(3)} ms`;
const verdict = (xs: number[]) => `target: at most 2 ms at p50 -> ${quantile(xs, 0.5) <= 2 ? 'met' : 'missed'}`;

async function measure(deps: Parameters<typeof runToolLoop>[0], tool: Tool, turns: number): Promise<number[]> {
  const provider = new ScriptedModel();
  for (let i = 0; i < 200; i++) await turn(deps, provider, tool); // warm-up: JIT, the compiled schema, the isolate
  const perRound: number[] = [];
  for (let i = 0; i < turns; i++) perRound.push(await turn(deps, provider, tool));
  return perRound;
}

async function main() {
  console.log(`Tools benchmark: node ${process.version}, model scripted in process (instant), ${ROUNDS} tool rounds a turn`);
  // (1) In process: the loop alone.
  const inProcess = await measure({ schemas: new AjvJsonSchemaChecker(), runners: new KeyedToolRunners().register('builtin:search_knowledge', instant) }, tool, TURNS);
  console.log(`\n(1) tool in process, answering at once (${TURNS} turns x ${ROUNDS} rounds):`);
  console.log(`  ${fmt(inProcess)}`);
  console.log(`  ${verdict(inProcess)}`);

  // (2) A plugin tool in the sandbox, through the runtime of a real core-api.
  const stack = await startCoreApi({ engine: 'in-process', env: { LOG_LEVEL: 'silent' } });
  try {
    const owner = await paidUserWithApplication(stack, 'pro');
    const token = owner.token;
    const plugin = await stack.client.post('/api/plugins', { manifest: { name: 'bench-lookup', version: '1.0.0', main: 'index.js' }, source: LOOKUP_PLUGIN }, { token });
    const installed = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.body.id }, { token });
    const activated = await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.body.id}/activate`, undefined, { token });
    if (activated.status !== 200) throw new Error(`activation failed: ${activated.text}`);
    const pluginTools = resolve(stack.core.container, PluginTools);
    const declared = (await pluginTools.toolsOf(owner.app.id)).find((t) => t.tool.name === 'lookup')?.tool;
    if (!declared) throw new Error('the plugin tool is not offered');
    const sandboxed = await measure({ schemas: new AjvJsonSchemaChecker(), runners: new KeyedToolRunners().register('plugin', pluginTools) }, declared, TURNS);
    console.log(`\n(2) plugin tool in the isolated-vm sandbox, handler joining two strings (${TURNS} turns x ${ROUNDS} rounds):`);
    console.log(`  ${fmt(sandboxed)}`);
    console.log(`  ${verdict(sandboxed)}`);

    // Where the sandbox arm's time goes: the plugin runner's call alone (lookup + isolate call + copies).
    const context = { applicationId: owner.app.id, ownerId: owner.user.id, signal: new AbortController().signal };
    const calls: number[] = [];
    for (let i = 0; i < 2_200; i++) {
      const t0 = performance.now();
      await pluginTools.run(declared, { query: `order ${i}`, limit: 3 }, context);
      if (i >= 200) calls.push(performance.now() - t0);
    }
    console.log(`\n    of which the plugin runner's call alone (2,000 calls): ${fmt(calls)}`);
  } finally {
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
