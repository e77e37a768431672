import { createHash } from 'node:crypto';
import type { LlmProvider } from '../../core/ai/ports/llm-provider.port';
import { keptModels } from '../../core/connections/domain/connection';
import type { ConnectionEndpoints, OpenedConnection } from '../../core/connections/ports/connection-endpoints.port';
import { UpstreamError, UpstreamTimeoutError } from '../../core/shared/errors';
import { urlProblemOf, type OutboundUrlRules } from '../../core/shared/outbound-url-rules.port';
import { AnthropicLlmProvider } from '../providers/anthropic-llm.provider';
import { HuggingFaceLlmProvider } from '../providers/hugging-face-llm.provider';
import { OpenAiLlmProvider } from '../providers/openai-llm.provider';
import type { ProviderOptions } from '../providers/provider-call';
import type { ConnectionKind } from '../../core/connections/domain/connection';
import { FetchRefused, ssrfSafeFetch, type SafeFetch } from '../tools/ssrf-safe.fetch';
import type { LookupFunction } from '../webhooks/ssrf-safe.webhook-sender';

export interface ConnectionEndpointsOptions {
  /** The address rules of connections: the webhooks' check, with the connections' own settings. */
  rules: OutboundUrlRules;
  /** Private ranges the operator allows connections to reach (CONNECTIONS_ALLOWED_PRIVATE_CIDRS). */
  allowedPrivateCidrs: string[];
  /** How long a call may wait (the whole listing, or for a stream the gap between chunks). */
  timeoutMs: number;
  /** Bytes one answer may carry (a model listing, or a whole streamed answer): past it the answer is cut. */
  maxResponseBytes?: number;
  lookup?: LookupFunction;
}

export const CONNECTION_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

const bearer = (c: OpenedConnection): Record<string, string> => (c.apiKey ? { authorization: `Bearer ${c.apiKey}` } : {});

/**
 * Each kind through the official SDK of the API it speaks, given the connection's base URL, the SSRF-safe
 * fetch and the extra headers; and where its model listing is, with the headers that API wants.
 */
const KINDS: Record<ConnectionKind, { provider: (options: ProviderOptions) => LlmProvider; models: (c: OpenedConnection) => { url: string; headers: Record<string, string> } }> = {
  // The base URL ends where the API's paths begin (`…/v1`): chat goes to `<base>/chat/completions`.
  openai_compatible: {
    provider: (options) => new OpenAiLlmProvider(options),
    models: (c) => ({ url: `${c.baseUrl}/models`, headers: bearer(c) }),
  },
  // The SDK adds `/v1/messages` to the base URL (the Anthropic API's own root, without `/v1`).
  anthropic_compatible: {
    provider: (options) => new AnthropicLlmProvider(options),
    models: (c) => ({ url: `${c.baseUrl}/v1/models?limit=1000`, headers: { 'anthropic-version': '2023-06-01', ...(c.apiKey ? { 'x-api-key': c.apiKey } : {}) } }),
  },
  // A Text Generation Inference or Inference Endpoints address: the SDK posts to `<base>/v1/chat/completions`.
  hugging_face_compatible: {
    provider: (options) => new HuggingFaceLlmProvider(options),
    models: (c) => ({ url: c.baseUrl.endsWith('/v1') ? `${c.baseUrl}/models` : `${c.baseUrl}/v1/models`, headers: bearer(c) }),
  },
};

/**
 * Connections over the network (docs/connections.md): every request (listing, chat, stream) goes through the
 * SSRF-safe fetch, which checks the URL's addresses and connects only to a checked address (a name that
 * rebinds in between is refused by the socket's own lookup), never follows a redirect, and cuts an answer
 * past `maxResponseBytes`. Each kind speaks through the official SDK of its API (`KINDS`).
 */
export class SsrfSafeConnectionEndpoints implements ConnectionEndpoints {
  private readonly fetch: SafeFetch;
  private readonly providers = new Map<string, LlmProvider>();

  constructor(private readonly options: ConnectionEndpointsOptions) {
    this.fetch = ssrfSafeFetch({
      urlCheck: options.rules,
      allowedPrivateCidrs: options.allowedPrivateCidrs,
      maxResponseBytes: options.maxResponseBytes ?? CONNECTION_MAX_RESPONSE_BYTES,
      userAgent: 'ai-app-platform-connections/1',
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
  }

  problemWith(baseUrl: string): Promise<string | null> {
    return this.options.rules.problemWith(baseUrl);
  }

  async listModels(c: OpenedConnection, signal?: AbortSignal): Promise<string[]> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new UpstreamTimeoutError(`The connection ${c.name} did not answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const listing = (KINDS[c.kind] ?? KINDS.openai_compatible).models(c);
      const response = await this.fetch(listing.url, { headers: { ...c.headers, accept: 'application/json', ...listing.headers }, signal: controller.signal });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new UpstreamError(`The connection ${c.name} answered with a redirect, which the platform does not follow: give the final address as its base URL`, 400);
      }
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        throw new UpstreamError(`The connection ${c.name} refused its key: check it under Provider keys, Connections`, 424);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new UpstreamError(`The connection ${c.name} answered ${response.status} to the model listing`, 502);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw new UpstreamError(`The connection ${c.name} answered the model listing with something that is not a model list${tooLarge(error) ? ' (the answer is larger than the platform reads)' : ''}`, 502);
      }
      const data = (body as { data?: unknown; models?: unknown } | null)?.data ?? (body as { models?: unknown } | null)?.models;
      if (!Array.isArray(data)) throw new UpstreamError(`The connection ${c.name} answered the model listing with something that is not a model list`, 502);
      return keptModels(data.map((m: unknown) => (m && typeof m === 'object' ? ((m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name) : m)));
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted && controller.signal.reason instanceof UpstreamTimeoutError) throw controller.signal.reason;
      if (error instanceof FetchRefused) throw new UpstreamError(`The platform may not call the connection ${c.name}: ${urlProblemOf(error.message, 'its address')}`, 400);
      if (error instanceof UpstreamError) throw error;
      throw new UpstreamError(`The connection ${c.name} could not be reached`, 502);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  provider(c: OpenedConnection): LlmProvider {
    // One provider (and its SDK clients) per connection version: a changed address or header set makes a new one.
    const version = createHash('sha256').update(JSON.stringify([c.id, c.kind, c.baseUrl, c.headers])).digest('base64url');
    let provider = this.providers.get(version);
    if (!provider) {
      if (this.providers.size >= 256) this.providers.delete(this.providers.keys().next().value!);
      provider = (KINDS[c.kind] ?? KINDS.openai_compatible).provider({ baseUrl: c.baseUrl, timeoutMs: this.options.timeoutMs, fetch: this.fetch as typeof fetch, headers: c.headers, name: c.name });
      this.providers.set(version, provider);
    }
    return provider;
  }
}

const tooLarge = (error: unknown): boolean => error instanceof Error && /larger than/.test(error.message);
