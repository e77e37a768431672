import type { ConversationRepository } from '../../../core/conversations/ports/conversation-repository.port';
import type { LlmProviderRegistry } from '../../../core/ai/ports/llm-provider.port';
import type { ChatEngine } from '../../../core/ai/ports/chat-engine.port';
import type { ChatPolicy } from '../../../core/conversations/ports/chat-policy.port';
import type { ToolRuntime } from '../../../core/ai/use-cases/prepare-chat';
import type { ConnectionEndpoints } from '../../../core/connections/ports/connection-endpoints.port';
import type { ResilienceRuntime } from '../../../core/ai/use-cases/resilient-llm-provider';
import { token } from '../tokens';
/** Identifiers of the chat area, shared by the AI service and the core API. */
export const CHAT_TOKENS = {
  ConversationRepository: token<ConversationRepository>('ConversationRepository'),
  LlmProviderRegistry: token<LlmProviderRegistry>('LlmProviderRegistry'),
  ChatEngine: token<ChatEngine>('ChatEngine'),
  /** Every ChatPolicy, in the order they run (bound by the areas that add one). */
  ChatPolicies: token<ChatPolicy[]>('ChatPolicies'),
  /** What runs a turn's tool calls where the engine runs (bound by the app that serves tools; docs/tools.md). */
  ToolRuntime: token<ToolRuntime>('ToolRuntime'),
  /** Owners' connections over the network (docs/connections.md): address rules, model listing, their LLM providers. */
  ConnectionEndpoints: token<ConnectionEndpoints>('ConnectionEndpoints'),
  /** Breakers and key balancing of resilient turns (docs/connections.md), read by system health and `/metrics`. */
  Resilience: token<ResilienceRuntime>('ResilienceRuntime'),
} as const;
