import type { ApiKeyRepository } from '../../../core/api-keys/ports/api-key-repository.port';
import type { PreviewTokens } from '../../../core/public-api/ports/preview-tokens.port';
import { token } from '../../shared/tokens';

export const API_KEY_TOKENS = {
  /** The store of API keys (the billing area counts a user's active keys through it). */
  ApiKeyRepository: token<ApiKeyRepository>('ApiKeyRepository'),
  /** Signs the console's widget preview sessions, which the public API admits in place of a key. */
  PreviewTokens: token<PreviewTokens>('PreviewTokens'),
} as const;
