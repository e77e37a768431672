import type { UserDirectory } from '../../../core/admin/ports/user-directory.port';
import { token } from '../../shared/tokens';

export const ADMIN_TOKENS = {
  UserDirectory: token<UserDirectory>('UserDirectory'),
} as const;
