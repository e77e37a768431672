import type { ChatRequest, ChatTurn, LlmProvider, TokenUsage, ToolCall, ToolSpec } from '../../ai/ports/llm-provider.port';
import type { AgentSettings } from '../domain/agent-settings';
import type { Tool } from '../domain/tool';
import type { JsonSchemaChecker } from '../ports/json-schema.port';
import { ToolFailure, type ToolRunnerRegistry } from '../ports/tool-runner.port';

/** A tool's output reaches the model at most this long (UTF-8 bytes); the rest is cut and the cut said. */
export const MAX_TOOL_OUTPUT_BYTES = 32 * 1024;

/** A call as the turn records it: arguments parsed when they were JSON, else the text the model wrote. */
export interface RecordedToolCall {
  id: string;
  name: string;
  arguments: unknown;
  isError: boolean;
  durationMs: number;
}

export type ToolLoopEvent =
  | { type: 'delta'; text: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_result'; toolCallId: string; name: string; content: string; isError: boolean; durationMs: number };

export type ToolLoopStop = 'maxToolRounds' | 'timeBudget';

export interface ToolLoopResult {
  content: string;
  /** Every model round's usage, summed. */
  usage: TokenUsage;
  /** Model rounds made. */
  rounds: number;
  toolCalls: RecordedToolCall[];
  /** The assistant turns with calls and the tool turns, in order: what history keeps of the turn. */
  turns: ChatTurn[];
  /** Set when a limit ended the turn rather than the model's answer. */
  stoppedBy?: ToolLoopStop;
}

export interface ToolLoopInput {
  provider: LlmProvider;
  /** The request of the turn's first round (history ending with the user's message), without tools. */
  request: ChatRequest;
  /** The application's tools; only those `settings.enabledTools` names are offered and may run. */
  tools: Tool[];
  settings: AgentSettings;
  applicationId: string;
  ownerId: string;
  signal?: AbortSignal;
  /** Before every model round after the first (quota and BYOK rules count each round); may throw to stop. */
  beforeRound?: (round: number) => Promise<void>;
  /**
   * Where the turns of the loop (assistant turns with calls, tool turns) are gathered as they happen, so
   * that a caller whose turn fails or is aborted midway still holds what was done; the result's `turns`.
   */
  turns?: ChatTurn[];
}

export interface ToolLoopDeps {
  schemas: JsonSchemaChecker;
  runners: ToolRunnerRegistry;
  now?: () => number;
}

const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

/** Cuts text to `max` UTF-8 bytes without splitting a character, saying so. */
export function capOutput(text: string, max = MAX_TOOL_OUTPUT_BYTES): string {
  if (Buffer.byteLength(text) <= max) return text;
  const cut = Buffer.from(text).subarray(0, max).toString('utf8').replace(/\uFFFD$/, '');
  return `${cut}\n[output cut at ${Math.round(max / 1024)} KB]`;
}

/**
 * The turn loop (docs/tools.md): model → calls → results → model, until the model answers or a limit
 * ends it. Model output is untrusted: a call to a tool that is not enabled is refused, arguments are
 * parsed and checked against the tool's schema (a failure goes back to the model as that call's error),
 * each call is cut at its timeout (bounded by the turn's budget) and its output at 32 KB. Tool output is
 * only ever text for the model: nothing in it changes which tools are enabled or any setting. Yields the
 * answer's text deltas and each call and result as they happen; returns the whole.
 */
export async function* runToolLoop(deps: ToolLoopDeps, input: ToolLoopInput): AsyncGenerator<ToolLoopEvent, ToolLoopResult> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const { settings } = input;
  // Fixed for the whole turn: what the model (or a tool's output) says never changes it.
  const enabled = new Map(input.tools.filter((t) => settings.enabledTools.includes(t.name)).map((t) => [t.name, t]));
  const specs: ToolSpec[] = [...enabled.values()].map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const messages: ChatTurn[] = [...input.request.messages];
  const turns: ChatTurn[] = input.turns ?? [];
  const toolCalls: RecordedToolCall[] = [];
  let usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let rounds = 0;
  let toolRounds = 0;
  let content = '';
  let stoppedBy: ToolLoopStop | undefined;
  const remaining = () => settings.timeBudgetMs - (now() - started);

  for (;;) {
    const lastRound = toolRounds >= settings.maxToolRounds;
    if (rounds > 0) {
      if (remaining() <= 0) {
        stoppedBy = 'timeBudget';
        break;
      }
      await input.beforeRound?.(rounds);
    }
    const offer = specs.length > 0 && settings.toolChoice !== 'none';
    const request: ChatRequest = {
      ...input.request,
      messages: [...messages],
      signal: input.signal,
      ...(offer
        ? {
            tools: specs,
            // After the first round a forced choice would loop: the model chooses freely; past the limit it may only answer.
            toolChoice: lastRound ? 'none' : rounds === 0 ? settings.toolChoice : 'auto',
            parallelToolCalls: settings.parallelCalls,
          }
        : {}),
    };
    rounds++;
    let text = '';
    const calls: ToolCall[] = [];
    for await (const part of input.provider.stream(request)) {
      if (part.type === 'delta') {
        text += part.text;
        yield { type: 'delta', text: part.text };
      } else if (part.type === 'usage') usage = addUsage(usage, part.usage);
      else calls.push(part.call);
    }
    content += text;
    // The last round offered no calls (the limit was reached): the limit ended the tool use.
    if (lastRound && offer) stoppedBy = 'maxToolRounds';
    // A model that calls tools anyway after being told to answer gets no more: the turn ends with what it has.
    if (!calls.length || lastRound) break;
    toolRounds++;
    // One call at a time when parallel calls are off, whatever the model sent.
    const accepted = settings.parallelCalls ? calls : calls.slice(0, 1);
    const assistant: ChatTurn = { role: 'assistant', content: text, toolCalls: accepted };
    messages.push(assistant);
    turns.push(assistant);
    for (const call of accepted) yield { type: 'tool_call', id: call.id, name: call.name, arguments: parsedOrText(call.arguments) };
    const run = (call: ToolCall) => runOne(deps, input, enabled, call, Math.max(0, remaining()), now);
    const results = settings.parallelCalls ? await Promise.all(accepted.map(run)) : await sequential(accepted, run);
    for (const result of results) {
      const turn: ChatTurn = { role: 'tool', toolCallId: result.id, name: result.name, content: result.content, isError: result.isError, durationMs: result.durationMs };
      messages.push(turn);
      turns.push(turn);
      toolCalls.push({ id: result.id, name: result.name, arguments: result.arguments, isError: result.isError, durationMs: result.durationMs });
      yield { type: 'tool_result', toolCallId: result.id, name: result.name, content: result.content, isError: result.isError, durationMs: result.durationMs };
    }
    if (input.signal?.aborted) throw input.signal.reason;
  }
  return { content, usage, rounds, toolCalls, turns, ...(stoppedBy ? { stoppedBy } : {}) };
}

async function sequential<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface CallResult {
  id: string;
  name: string;
  arguments: unknown;
  content: string;
  isError: boolean;
  durationMs: number;
}

/** One call: refused, failed or answered, always as a result the model reads (never a thrown error). */
async function runOne(deps: ToolLoopDeps, input: ToolLoopInput, enabled: Map<string, Tool>, call: ToolCall, budgetMs: number, now: () => number): Promise<CallResult> {
  const started = now();
  const args = parsedOrText(call.arguments);
  const done = (content: string, isError: boolean): CallResult => ({ id: call.id, name: call.name, arguments: args, content: capOutput(content), isError, durationMs: Math.round(now() - started) });
  const tool = enabled.get(call.name);
  if (!tool) return done(`Error: there is no tool named "${call.name.slice(0, 64)}" in this conversation`, true);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return done('Error: the arguments must be a JSON object', true);
  const problems = deps.schemas.check(tool.parameters, args);
  if (problems.length) return done(`Error: the arguments do not match the tool's schema: ${problems.join('; ')}`, true);
  const runner = deps.runners.runnerFor(tool.source);
  if (!runner) return done('Error: this tool cannot run in this deployment', true);
  const timeoutMs = Math.min(tool.timeoutMs, budgetMs);
  const controller = new AbortController();
  const onAbort = () => controller.abort(input.signal?.reason);
  input.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Rejected before the abort, so the timeout is what the race reports, not the runner's own abort error.
        reject(new ToolFailure(`the tool did not answer within ${timeoutMs} ms`));
        controller.abort();
      }, timeoutMs);
    });
    const output = await Promise.race([runner.run(tool, args as Record<string, unknown>, { applicationId: input.applicationId, ownerId: input.ownerId, signal: controller.signal }), timeout]);
    return done(output, false);
  } catch (error) {
    // Only a ToolFailure's message is the model's to read; anything else may hold internals.
    return done(`Error: ${error instanceof ToolFailure ? error.message : 'the tool failed'}`, true);
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
  }
}
