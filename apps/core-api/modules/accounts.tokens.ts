import type { PlatformSetupRepository } from '../../../core/auth/ports/platform-setup-repository.port';
import { token } from '../../shared/tokens';

/** The first run's setup link (docs/operations.md): its one pending token, kept as a digest. */
export const SETUP_TOKENS = {
  PlatformSetupRepository: token<PlatformSetupRepository>('PlatformSetupRepository'),
} as const;
