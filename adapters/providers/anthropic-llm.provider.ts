import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { ChatRequest, ChatResult, LlmProvider, StreamPart } from '../../core/ai/ports/llm-provider.port';
import { UpstreamError } from '../../core/shared/errors';
import { alternatingTurns, systemOf, usageOf } from './chat-turns';
import { ProviderCall, type ProviderOptions } from './provider-call';
import { nodeHttpFetch } from '../clients/node-http-fetch';
import { SdkClients } from './sdk-clients';

/**
 * provider_b: the Anthropic Messages API through `@anthropic-ai/sdk`. The API version this SDK speaks
 * has no sampling parameters (temperature, top_p) and never had penalties, so only maxTokens and the
 * system text of the settings reach it.
 */
export class AnthropicLlmProvider implements LlmProvider {
  readonly id = 'provider_b' as const;

  constructor(private readonly options: ProviderOptions) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const call = new ProviderCall(this.id, this.options.timeoutMs, request.apiKey, request.signal);
    return call.run(async (signal) => {
      const message: Message = await this.client(request.apiKey).messages.create({ ...this.body(request), stream: false }, { signal });
      const content = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return { content, usage: usageOf(inputTokens(message.usage), message.usage.output_tokens), model: message.model || request.model };
    });
  }

  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    const call = new ProviderCall(this.id, this.options.timeoutMs, request.apiKey, request.signal);
    try {
      const events = await this.client(request.apiKey).messages.create({ ...this.body(request), stream: true }, { signal: call.signal });
      let input: number | undefined;
      let output = 0;
      let stopped = false;
      for await (const event of events) {
        call.touch();
        if (event.type === 'message_start') {
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
      if (!stopped) throw new UpstreamError(`${this.id} failed: the answer stream ended before message_stop`);
      if (input !== undefined) yield { type: 'usage', usage: usageOf(input, output) };
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  async listModels(apiKey: string, signal?: AbortSignal): Promise<string[]> {
    const call = new ProviderCall(this.id, this.options.timeoutMs, apiKey, signal);
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
    (apiKey) => new Anthropic({ apiKey, baseURL: this.options.baseUrl, maxRetries: 0, timeout: this.options.timeoutMs, fetch: nodeHttpFetch }),
  );

  private client(apiKey: string): Anthropic {
    return this.clients.get(apiKey);
  }

  private body(request: ChatRequest): Omit<MessageCreateParamsBase, 'stream'> {
    const system = systemOf(request);
    return {
      model: request.model,
      max_tokens: request.settings.maxTokens,
      messages: alternatingTurns(request.messages).map((m) => ({ role: m.role, content: m.content })),
      ...(system ? { system } : {}),
    };
  }
}

function inputTokens(usage: Message['usage']): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}
