import { InferenceClient } from '@huggingface/inference';
import type { ChatRequest, ChatResult, ChatTurn, LlmProvider, StreamPart, ToolCall } from '../../core/ai/ports/llm-provider.port';
import { estimatedUsage, systemOf, usageOf } from './chat-turns';
import { ProviderCall, type ProviderOptions } from './provider-call';
import { HttpStatusError } from './provider-errors';
import { nodeHttpFetch } from '../clients/node-http-fetch';
import { SdkClients } from './sdk-clients';
import { argumentsText, newCallId, ToolCallAssembler } from './tool-wire';

/** Where chat goes when no endpoint is configured: the Inference Providers router. */
export const HUGGING_FACE_ROUTER_URL = 'https://router.huggingface.co/v1';

// The input types live in @huggingface/tasks, which is the SDK's dependency rather than ours.
type ChatInput = Parameters<InferenceClient['chatCompletion']>[0];

/**
 * provider_d: Hugging Face Inference through `@huggingface/inference`. With an `endpointUrl` (the
 * base URL option) the SDK posts chat to `<endpointUrl>/v1/chat/completions` with the model in the
 * body; without one it goes to the router, which serves the same OpenAI-compatible API.
 */
export class HuggingFaceLlmProvider implements LlmProvider {
  readonly id = 'provider_d' as const;

  constructor(private readonly options: ProviderOptions) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, request.apiKey, request.signal);
    return call.run(async (signal) => {
      const output = await this.client(request.apiKey).chatCompletion(this.body(request), { signal, retry_on_error: false });
      const message = output.choices[0]?.message;
      const content = message?.content ?? '';
      // TGI has sent arguments as an object as well as text; both are taken.
      const toolCalls: ToolCall[] = (message?.tool_calls ?? []).map((c) => ({ id: c.id || newCallId(), name: c.function.name, arguments: argumentsText(c.function.arguments) }));
      return {
        content,
        usage: output.usage ? usageOf(output.usage.prompt_tokens, output.usage.completion_tokens) : estimatedUsage(request, content),
        model: output.model || request.model,
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    });
  }

  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, request.apiKey, request.signal);
    try {
      const chunks = this.client(request.apiKey).chatCompletionStream(
        { ...this.body(request), stream_options: { include_usage: true } },
        { signal: call.signal, retry_on_error: false },
      );
      const calls = new ToolCallAssembler();
      for await (const chunk of chunks) {
        call.touch();
        const delta = chunk.choices[0]?.delta;
        const text = delta?.content;
        if (text) yield { type: 'delta', text };
        if (delta?.tool_calls) calls.add(delta.tool_calls);
        if (chunk.usage) yield { type: 'usage', usage: usageOf(chunk.usage.prompt_tokens, chunk.usage.completion_tokens) };
      }
      call.throwIfStopped();
      for (const assembled of calls.finish()) yield { type: 'tool_call', call: assembled };
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  /** The SDK has no listing; the OpenAI-compatible `GET …/v1/models` sits beside the chat route. */
  async listModels(apiKey: string, signal?: AbortSignal): Promise<string[]> {
    const call = new ProviderCall(this.options.name ?? this.id, this.options.timeoutMs, apiKey, signal);
    return call.run(async (callSignal) => {
      const response = await (this.options.fetch ?? fetch)(this.modelsUrl(), { headers: { ...this.options.headers, authorization: `Bearer ${apiKey}` }, signal: callSignal });
      const body = (await response.json().catch(() => ({}))) as { data?: { id: string }[]; error?: unknown };
      if (!response.ok) {
        const error = body.error;
        const message = typeof error === 'string' ? error : ((error as { message?: string } | undefined)?.message ?? response.statusText);
        throw new HttpStatusError(response.status, message);
      }
      return (body.data ?? []).map((m) => m.id);
    });
  }

  /** One client per key, as the key belongs to the request. */
  private readonly clients = new SdkClients(
    (apiKey) => new InferenceClient(apiKey, { fetch: this.fetchWithHeaders(), ...(this.options.baseUrl ? { endpointUrl: this.options.baseUrl } : {}) }),
  );

  /** The SDK takes no extra headers: a connection's (docs/connections.md) are added by the fetch it is given. */
  private fetchWithHeaders(): typeof fetch {
    const base = this.options.fetch ?? nodeHttpFetch;
    const extra = this.options.headers;
    if (!extra || !Object.keys(extra).length) return base;
    return (input, init) => {
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(extra)) if (!headers.has(name)) headers.set(name, value);
      return base(input, { ...init, headers });
    };
  }

  private client(apiKey: string): InferenceClient {
    return this.clients.get(apiKey);
  }

  /** The same rule the SDK applies to chat: `…/v1` gets `/models`, anything else `/v1/models`. */
  private modelsUrl(): string {
    const base = (this.options.baseUrl ?? HUGGING_FACE_ROUTER_URL).trim().replace(/\/+$/, '').replace(/\/chat\/completions$/, '');
    return base.endsWith('/v1') ? `${base}/models` : `${base}/v1/models`;
  }

  private body(request: ChatRequest): ChatInput {
    const { settings } = request;
    const system = systemOf(request);
    const messages: ChatInput['messages'] = [
      ...(system ? [{ role: 'system', content: system }] : []),
      ...request.messages.map(toMessage),
    ];
    const tools = request.tools?.length ? request.tools : undefined;
    const choice = request.toolChoice ?? 'auto';
    return {
      model: request.model,
      messages,
      max_tokens: settings.maxTokens,
      temperature: settings.temperature,
      top_p: settings.topP,
      ...(settings.frequencyPenalty !== undefined ? { frequency_penalty: settings.frequencyPenalty } : {}),
      ...(settings.presencePenalty !== undefined ? { presence_penalty: settings.presencePenalty } : {}),
      ...(tools
        ? {
            tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })),
            tool_choice: typeof choice === 'string' ? choice : { function: { name: choice.name } },
            ...(request.parallelToolCalls !== undefined ? { parallel_tool_calls: request.parallelToolCalls } : {}),
          }
        : {}),
    };
  }
}

/** A turn in the OpenAI-compatible format the chat completion route takes. */
function toMessage(m: ChatTurn): ChatInput['messages'][number] {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', name: m.name, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) };
  }
  return { role: m.role, content: m.content };
}
