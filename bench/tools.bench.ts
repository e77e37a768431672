import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import type { ChatRequest, ChatResult, LlmProvider, StreamPart } from '../core/ai/ports/llm-provider.port';
import { defaultAgentSettings } from '../core/tools/domain/agent-settings';
import type { Tool } from '../core/tools/domain/tool';
import type { ToolRunner } from '../core/tools/ports/tool-runner.port';
import { runToolLoop } from '../core/tools/use-cases/tool-loop';
import { KeyedToolRunners } from '../core/tools/use-cases/tool-runners';
import { AjvJsonSchemaChecker } from '../adapters/tools/ajv.json-schema-checker';

/**
 * `npm run bench:tools`: the platform's own time per tool round, without the tool and without the model.
 * The model is scripted in process (it answers at once: `rounds` rounds of one call each, then text) and
 * the tool answers at once, so what is timed is the loop itself: offering the tools, reading the calls,
 * checking each against the enabled set and its schema (Ajv), the timeout and cap around the call, and
 * feeding the result back. Turns run one after another; the figure is per tool round.
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

async function turn(deps: Parameters<typeof runToolLoop>[0], provider: LlmProvider): Promise<number> {
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

async function main() {
  const deps = { schemas: new AjvJsonSchemaChecker(), runners: new KeyedToolRunners().register('builtin:search_knowledge', instant) };
  const provider = new ScriptedModel();
  for (let i = 0; i < 200; i++) await turn(deps, provider); // warm-up: JIT, the compiled schema
  const perRound: number[] = [];
  for (let i = 0; i < TURNS; i++) perRound.push(await turn(deps, provider));
  const p50 = quantile(perRound, 0.5);
  console.log(`tool round, platform's own time (${TURNS} turns x ${ROUNDS} rounds, model and tool instant):`);
  console.log(`  p50 ${p50.toFixed(3)} ms  p90 ${quantile(perRound, 0.9).toFixed(3)} ms  p99 ${quantile(perRound, 0.99).toFixed(3)} ms`);
  console.log(`  target: at most 2 ms at p50 -> ${p50 <= 2 ? 'met' : 'missed'}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
