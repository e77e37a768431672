import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, MessageCreateParamsBase, MessageParam, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type { ChatRequest, ChatResult, ChatTurn, LlmProvider, StreamPart, ToolCall } from '../../core/ai/ports/llm-provider.port';
import { UpstreamError } from '../../core/shared/errors';
import { alternatingTurns, systemOf, usageOf } from './chat-turns';
import { ProviderCall, type ProviderOptions } from './provider-call';
import { nodeHttpFetch } from '../clients/node-http-fetch';
import { SdkClients } from './sdk-clients';
import { argumentsObject, hasToolTurns } from './tool-wire';

/**
 * provider_b: the Anthropic Messages API through `@anthropic-ai/sdk`. The API version this SDK speaks
 * has no sampling parameters (temperature, top_p) and never had penalties, so only maxTokens and the
 * system text of the settings reach it.
 */
export class AnthropicLlmProvider implements LlmProvider {
  readonly id = 'provider_b' as const;

  constructor(private readonly options: ProviderOptions) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, request.apiKey, request.signal);
    return call.run(async (signal) => {
      const message: Message = await this.client(request.apiKey).messages.create({ ...this.body(request), stream: false }, { signal });
      const content = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      const toolCalls: ToolCall[] = message.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) }] : []));
      return {
        content,
        usage: usageOf(inputTokens(message.usage), message.usage.output_tokens),
        model: message.model || request.model,
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    });
  }

  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, request.apiKey, request.signal);
    try {
      const events = await this.client(request.apiKey).messages.create({ ...this.body(request), stream: true }, { signal: call.signal });
      let input: number | undefined;
      let output = 0;
      let stopped = false;
      // tool_use blocks by index: opened with id and name, input streamed as JSON pieces, complete at their stop.
      const uses = new Map<number, ToolCall>();
      for await (const event of events) {
        call.touch();
        if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          uses.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
        } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
          const use = uses.get(event.index);
          if (use) use.arguments += event.delta.partial_json;
        } else if (event.type === 'content_block_stop' && uses.has(event.index)) {
          const use = uses.get(event.index)!;
          uses.delete(event.index);
          yield { type: 'tool_call', call: { ...use, arguments: use.arguments || '{}' } };
        } else if (event.type === 'message_start') {
          input = inputTokens(event.message.usage);
          output = event.message.usage.output_tokens;
        } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          if (event.delta.text) yield { type: 'delta', text: event.delta.text };
        } else if (event.type === 'message_delta') {
          // Counts in message_delta are cumulative and final.
          output = event.usage.output_tokens;
          if (event.usage.input_tokens != null) input = event.usage.input_tokens + (event.usage.cache_read_input_tokens ?? 0) + (event.usage.cache_creation_input_tokens ?? 0);
        } else if (event.type === 'message_stop') {
          stopped = true;
        }
      }
      call.throwIfStopped();
      if (!stopped) throw new UpstreamError(`${this.options.name ?? this.id} failed: the answer stream ended before message_stop`);
      if (input !== undefined) yield { type: 'usage', usage: usageOf(input, output) };
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  async listModels(apiKey: string, signal?: AbortSignal): Promise<string[]> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, apiKey, signal);
    return call.run(async (callSignal) => {
      const ids: string[] = [];
      for await (const model of this.client(apiKey).models.list({ limit: 1000 }, { signal: callSignal })) ids.push(model.id);
      return ids;
    });
  }

  /**
   * One client per key, as the key belongs to the request. An explicit timeout also stops the SDK
   * refusing non-streaming calls with a large max_tokens; our own deadline normally fires first.
   */
  private readonly clients = new SdkClients(
    (apiKey) =>
      new Anthropic({
        apiKey,
        baseURL: this.options.baseUrl,
        maxRetries: 0,
        timeout: this.options.timeoutMs,
        fetch: this.options.fetch ?? nodeHttpFetch,
        ...(this.options.headers ? { defaultHeaders: this.options.headers } : {}),
      }),
  );

  private client(apiKey: string): Anthropic {
    return this.clients.get(apiKey);
  }

  private body(request: ChatRequest): Omit<MessageCreateParamsBase, 'stream'> {
    const system = systemOf(request);
    const tools = request.tools?.length ? request.tools : undefined;
    return {
      model: request.model,
      max_tokens: request.settings.maxTokens,
      messages: hasToolTurns(request.messages)
        ? withToolBlocks(request.messages)
        : alternatingTurns(request.messages).map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content })),
      ...(system ? { system } : {}),
      ...(tools
        ? {
            tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as { type: 'object' } })),
            tool_choice: toolChoice(request),
          }
        : {}),
    };
  }
}

function toolChoice(request: ChatRequest): ToolChoice {
  const choice = request.toolChoice ?? 'auto';
  if (choice === 'none') return { type: 'none' };
  const parallel = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'auto') return { type: 'auto', ...parallel };
  if (choice === 'required') return { type: 'any', ...parallel };
  return { type: 'tool', name: choice.name, ...parallel };
}

/**
 * Turns as content blocks: an assistant's calls as `tool_use` blocks, results as `tool_result` blocks of a
 * user message; turns of one role in a row join into one message (the API wants roles alternating, and
 * every result of a round in the user message right after the calls).
 */
function withToolBlocks(turns: ChatTurn[]): MessageParam[] {
  const out: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  for (const t of turns) {
    const role = t.role === 'assistant' ? 'assistant' : 'user';
    const blocks: ContentBlockParam[] = [];
    if (t.role === 'tool') {
      blocks.push({ type: 'tool_result', tool_use_id: t.toolCallId ?? '', content: t.content, ...(t.isError ? { is_error: true } : {}) });
    } else {
      if (t.content !== '') blocks.push({ type: 'text', text: t.content });
      for (const c of t.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) });
    }
    if (!blocks.length || (out.length === 0 && role !== 'user')) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

function inputTokens(usage: Message['usage']): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}
