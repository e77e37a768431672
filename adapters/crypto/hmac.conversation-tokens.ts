import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { ConversationTokens } from '../../core/public-api/ports/conversation-tokens.port';

/** HMAC-SHA256 of the conversation id under a key derived (HKDF) from the platform secret for this one use. */
export class HmacConversationTokens implements ConversationTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'hosted-chat', 'conversation-tokens', 32));
  }

  issue(conversationId: string): string {
    return createHmac('sha256', this.key).update(conversationId).digest('base64url');
  }

  verify(conversationId: string, token: string): boolean {
    const expected = Buffer.from(this.issue(conversationId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
