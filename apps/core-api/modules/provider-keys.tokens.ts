import type { ProviderKeyRepository } from '../../../core/provider-keys/ports/provider-key-repository.port';
import { token } from '../../shared/tokens';

export const PROVIDER_KEY_TOKENS = {
  ProviderKeyRepository: token<ProviderKeyRepository>('ProviderKeyRepository'),
} as const;
