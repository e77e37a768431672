import type { ConversationTokens } from '../../../core/public-api/ports/conversation-tokens.port';
import { token } from '../../shared/tokens';

export const HOSTED_PAGE_TOKENS = {
  ConversationTokens: token<ConversationTokens>('ConversationTokens'),
} as const;
