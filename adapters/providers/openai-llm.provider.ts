import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ChatRequest, ChatResult, ChatTurn, LlmProvider, StreamPart, ToolCall, ToolChoiceSpec } from '../../core/ai/ports/llm-provider.port';
import { estimatedUsage, systemOf, usageOf } from './chat-turns';
import { ProviderCall, type ProviderOptions } from './provider-call';
import { nodeHttpFetch } from '../clients/node-http-fetch';
import { SdkClients } from './sdk-clients';
import { ToolCallAssembler } from './tool-wire';

/** provider_a: the OpenAI Chat Completions API through the `openai` SDK. */
export class OpenAiLlmProvider implements LlmProvider {
  readonly id = 'provider_a' as const;

  /** The key belongs to the request (a user's own or the platform's): one client per key. */
  private readonly clients = new SdkClients((apiKey) => new OpenAI({ apiKey, baseURL: this.options.baseUrl, maxRetries: 0, fetch: this.options.fetch ?? nodeHttpFetch, ...(this.options.headers ? { defaultHeaders: this.options.headers } : {}) }));

  constructor(private readonly options: ProviderOptions) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, request.apiKey, request.signal);
    return call.run(async (signal) => {
      const completion = await this.client(request.apiKey).chat.completions.create({ ...this.body(request), stream: false }, { signal });
      const message = completion.choices[0]?.message;
      const content = message?.content ?? '';
      const toolCalls: ToolCall[] = (message?.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : []));
      return {
        content,
        usage: completion.usage ? toUsage(completion.usage) : estimatedUsage(request, content),
        model: completion.model || request.model,
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    });
  }

  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, request.apiKey, request.signal);
    try {
      const stream = await this.client(request.apiKey).chat.completions.create(
        { ...this.body(request), stream: true, stream_options: { include_usage: true } },
        { signal: call.signal },
      );
      const calls = new ToolCallAssembler();
      for await (const chunk of stream) {
        call.touch();
        const delta = chunk.choices[0]?.delta;
        const text = delta?.content;
        if (text) yield { type: 'delta', text };
        if (delta?.tool_calls) calls.add(delta.tool_calls);
        if (chunk.usage) yield { type: 'usage', usage: toUsage(chunk.usage) };
      }
      call.throwIfStopped();
      for (const assembled of calls.finish()) yield { type: 'tool_call', call: assembled };
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
      for await (const model of this.client(apiKey).models.list({ signal: callSignal })) ids.push(model.id);
      return ids;
    });
  }

  private client(apiKey: string): OpenAI {
    return this.clients.get(apiKey);
  }

  private body(request: ChatRequest): Omit<ChatCompletionCreateParamsBase, 'stream'> {
    const { settings } = request;
    const system = systemOf(request);
    const messages: ChatCompletionMessageParam[] = [
      ...(system ? [{ role: 'system' as const, content: system }] : []),
      ...request.messages.map(toMessage),
    ];
    const tools = request.tools?.length ? request.tools : undefined;
    return {
      model: request.model,
      messages,
      temperature: settings.temperature,
      top_p: settings.topP,
      max_completion_tokens: settings.maxTokens,
      ...(settings.frequencyPenalty !== undefined ? { frequency_penalty: settings.frequencyPenalty } : {}),
      ...(settings.presencePenalty !== undefined ? { presence_penalty: settings.presencePenalty } : {}),
      ...(tools
        ? {
            tools: tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
            tool_choice: toolChoice(request.toolChoice ?? 'auto'),
            ...(request.parallelToolCalls !== undefined ? { parallel_tool_calls: request.parallelToolCalls } : {}),
          }
        : {}),
    };
  }
}

/** A turn in the Chat Completions format: tool calls on the assistant message, results as `tool` messages. */
function toMessage(m: ChatTurn): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return { role: m.role, content: m.content };
}

function toolChoice(choice: ToolChoiceSpec): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function toUsage(usage: CompletionUsage) {
  return usageOf(usage.prompt_tokens, usage.completion_tokens);
}
