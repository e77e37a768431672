/** Identifiers of the chat area, shared by the AI service and the core API. */
export const CHAT_TOKENS = {
  ConversationRepository: Symbol.for('ConversationRepository'),
  LlmProviderRegistry: Symbol.for('LlmProviderRegistry'),
  ChatEngine: Symbol.for('ChatEngine'),
  /** Every ChatPolicy, in the order they run (bound by the areas that add one). */
  ChatPolicies: Symbol.for('ChatPolicies'),
} as const;
