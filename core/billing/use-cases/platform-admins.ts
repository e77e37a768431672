import { effectiveRole } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import type { PlatformAdmins } from './current-plan';

/** The platform's admins for the plans: an account whose effective role is admin (stored, or ADMIN_EMAILS). */
export function platformAdmins(users: Pick<UserRepository, 'findById'>, adminEmails: readonly string[]): PlatformAdmins {
  return {
    async isAdmin(userId) {
      const user = await users.findById(userId);
      return user !== null && !user.disabled && effectiveRole(user, adminEmails) === 'admin';
    },
  };
}
