import type { ApiKeyRepository } from '../../../core/api-keys/ports/api-key-repository.port';
import { token } from '../../shared/tokens';

export const API_KEY_TOKENS = {
  /** The store of API keys (the billing area counts a user's active keys through it). */
  ApiKeyRepository: token<ApiKeyRepository>('ApiKeyRepository'),
} as const;
