import type { LlmProvider } from '../../ai/ports/llm-provider.port';
import type { ConnectionKind } from '../domain/connection';

/** A connection with its secrets opened, for the one request that needs them; never cached in views, logged or exported. */
export interface OpenedConnection {
  id: string;
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  apiKey?: string;
  headers: Record<string, string>;
  models: string[];
}

/**
 * The network side of connections (docs/connections.md): the address rules (checked on save and on every
 * request, the socket connecting to the address that was checked), the model listing, and an LLM
 * provider that speaks the connection's kind.
 */
export interface ConnectionEndpoints {
  /** Why the platform may not call this base URL, in words starting with `url`; null when it may. */
  problemWith(baseUrl: string): Promise<string | null>;
  /** The endpoint's `/models`, well-formed ids only, at most MAX_CONNECTION_MODELS of them. */
  listModels(connection: OpenedConnection, signal?: AbortSignal): Promise<string[]>;
  provider(connection: OpenedConnection): LlmProvider;
}
