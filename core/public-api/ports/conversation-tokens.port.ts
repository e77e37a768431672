/**
 * Proof that a visitor of the hosted chat page started a conversation: issued with its first answer,
 * shown back to continue it or read its history. Without a key, nothing else ties a visitor to it.
 */
export interface ConversationTokens {
  issue(conversationId: string): string;
  verify(conversationId: string, token: string): boolean;
}
