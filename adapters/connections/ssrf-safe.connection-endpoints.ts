import { createHash } from 'node:crypto';
import type { LlmProvider } from '../../core/ai/ports/llm-provider.port';
import { keptModels } from '../../core/connections/domain/connection';
import type { ConnectionEndpoints, OpenedConnection } from '../../core/connections/ports/connection-endpoints.port';
import { UpstreamError, UpstreamTimeoutError } from '../../core/shared/errors';
import { urlProblemOf, type OutboundUrlRules } from '../../core/shared/outbound-url-rules.port';
import { OpenAiLlmProvider } from '../providers/openai-llm.provider';
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

/**
 * Connections over the network (docs/connections.md): every request (listing, chat, stream) goes through the
 * SSRF-safe fetch, which checks the URL's addresses and connects only to a checked address (a name that
 * rebinds in between is refused by the socket's own lookup), never follows a redirect, and cuts an answer
 * past `maxResponseBytes`. OpenAI-compatible endpoints speak through the official `openai` SDK.
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
      const response = await this.fetch(`${c.baseUrl}/models`, { headers: this.headersOf(c), signal: controller.signal });
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
    const version = createHash('sha256').update(JSON.stringify([c.id, c.baseUrl, c.headers])).digest('base64url');
    let provider = this.providers.get(version);
    if (!provider) {
      if (this.providers.size >= 256) this.providers.delete(this.providers.keys().next().value!);
      provider = new OpenAiLlmProvider({ baseUrl: c.baseUrl, timeoutMs: this.options.timeoutMs, fetch: this.fetch as typeof fetch, headers: c.headers, name: c.name });
      this.providers.set(version, provider);
    }
    return provider;
  }

  private headersOf(c: OpenedConnection): Record<string, string> {
    return { ...c.headers, accept: 'application/json', ...(c.apiKey ? { authorization: `Bearer ${c.apiKey}` } : {}) };
  }
}

const tooLarge = (error: unknown): boolean => error instanceof Error && /larger than/.test(error.message);
