import type { ChatRequest, ChatResult, LlmProvider, StreamPart, TokenUsage } from '../../ai/ports/llm-provider.port';
import type { ToolRunner, ToolRunnerRegistry } from '../../tools/ports/tool-runner.port';
import { ToolFailure } from '../../tools/ports/tool-runner.port';
import { isAppError } from '../../shared/errors';
import { ATTR } from '../domain/attributes';
import type { SpanHandle, TurnTrace } from '../domain/turn-trace';

const nowMs = (): number => performance.timeOrigin + performance.now();
/** Longest text kept in one attribute (tool arguments and results, captured messages). */
const MAX_TEXT = 4_000;
const clip = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** A failure as a span may say it: an AppError's public message, never a raw error's text (it may hold internals). */
export function publicFailure(error: unknown): { message: string; type: string } {
  if (isAppError(error)) return { message: error.message, type: error.kind };
  if (error instanceof ToolFailure) return { message: error.message, type: 'tool_failure' };
  if (error instanceof Error && error.name === 'AbortError') return { message: 'aborted', type: 'aborted' };
  return { message: 'failed', type: 'error' };
}

/**
 * A provider whose every model round is a span (`chat <model>`): provider, model, settings, tokens, cost, time to
 * first token and finish reason, with the GenAI conventions' names. The round's span rides on the request
 * (`ChatRequest.span`), so what runs beneath it (retries, fallbacks) can add spans of its own under it.
 */
export function tracedProvider(provider: LlmProvider, trace: TurnTrace, parent?: SpanHandle): LlmProvider {
  const start = (request: ChatRequest): SpanHandle => {
    const span = trace.span(`chat ${request.model}`, {
      [ATTR.operationName]: 'chat',
      [ATTR.providerName]: provider.id,
      [ATTR.requestModel]: request.model,
      [ATTR.requestMaxTokens]: request.settings.maxTokens,
      [ATTR.requestTemperature]: request.settings.temperature,
    }, 'client', parent);
    if (trace.captureContent) {
      span.set(ATTR.inputMessages, clip(JSON.stringify(request.messages.map((m) => ({ role: m.role, parts: [{ type: 'text', content: m.content }] })))));
      if (request.system) span.set(ATTR.systemInstructions, clip(JSON.stringify([{ type: 'text', content: request.system }])));
    }
    return span;
  };
  const finish = (span: SpanHandle, request: ChatRequest, model: string, usage: TokenUsage | undefined, content: string, toolCalls: number, firstTokenMs: number | undefined, startedMs: number) => {
    span.set(ATTR.responseModel, model);
    span.set(ATTR.finishReasons, [toolCalls > 0 ? 'tool_calls' : 'stop']);
    if (firstTokenMs !== undefined) span.set(ATTR.timeToFirstToken, (firstTokenMs - startedMs) / 1000);
    if (usage) {
      span.set(ATTR.inputTokens, usage.promptTokens);
      span.set(ATTR.outputTokens, usage.completionTokens);
      span.set(ATTR.costUsd, trace.costOf(provider.id, request.model, usage));
    }
    if (trace.captureContent) span.set(ATTR.outputMessages, clip(JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content }] }])));
    span.end();
  };
  const failed = (span: SpanHandle, error: unknown) => {
    const { message, type } = publicFailure(error);
    span.fail(message, type).end();
  };
  return {
    id: provider.id,
    listModels: (apiKey, signal) => provider.listModels(apiKey, signal),
    async chat(request: ChatRequest): Promise<ChatResult> {
      const span = start(request);
      const started = nowMs();
      try {
        const result = await provider.chat({ ...request, span });
        // A whole answer's first token arrives with the rest of it.
        finish(span, request, result.model, result.usage, result.content, result.toolCalls?.length ?? 0, nowMs(), started);
        return result;
      } catch (error) {
        failed(span, error);
        throw error;
      }
    },
    async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
      const span = start(request);
      const started = nowMs();
      let first: number | undefined;
      let usage: TokenUsage | undefined;
      let calls = 0;
      let text = '';
      let ok = false;
      try {
        for await (const part of provider.stream({ ...request, span })) {
          if (part.type === 'delta') {
            if (first === undefined && part.text !== '') first = nowMs();
            if (trace.captureContent) text += part.text;
          } else if (part.type === 'usage') usage = part.usage;
          else if (part.type === 'tool_call') {
            calls++;
            first ??= nowMs();
          }
          yield part;
        }
        ok = true;
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        if (ok) finish(span, request, request.model, usage, text, calls, first, started);
        // The consumer stopped reading (the client went away): the round ends here.
        else if (!(span as { isEnded?: boolean }).isEnded) span.fail('aborted', 'aborted').end();
      }
    },
  };
}

/** Tool runners whose every call is a span (`execute_tool <name>`): name, arguments, result and its size, error. */
export function tracedToolRunners(runners: ToolRunnerRegistry, trace: TurnTrace, parent?: SpanHandle): ToolRunnerRegistry {
  return {
    runnerFor(source) {
      const runner = runners.runnerFor(source);
      if (!runner) return undefined;
      const traced: ToolRunner = {
        async run(tool, args, context) {
          const span = trace.span(`execute_tool ${tool.name}`, {
            [ATTR.operationName]: 'execute_tool',
            [ATTR.toolName]: tool.name,
            [ATTR.toolType]: 'function',
            [ATTR.toolArguments]: clip(JSON.stringify(args)),
          }, 'client', parent);
          try {
            const output = await runner.run(tool, args, context);
            span.set(ATTR.toolResultSize, output.length).set(ATTR.toolResult, clip(output)).end();
            return output;
          } catch (error) {
            const { message, type } = publicFailure(error);
            span.fail(message, type).end();
            throw error;
          }
        },
      };
      return traced;
    },
  };
}
