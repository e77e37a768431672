import type { ConnectionRepository } from '../../../core/connections/ports/connection-repository.port';
import { token } from '../../shared/tokens';

export const CONNECTION_TOKENS = {
  Repository: token<ConnectionRepository>('ConnectionRepository'),
} as const;
