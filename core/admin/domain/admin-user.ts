import type { PlanTier } from '../../billing/domain/plans';
import type { PlatformRole } from '../../shared/actor';
import { effectiveRole } from '../../users/domain/user';
import type { DirectoryUser } from '../ports/user-directory.port';

/** An account in the admin console's answers. */
export interface AdminUserView {
  id: string;
  email: string;
  displayName: string;
  /** The role the account acts with (ADMIN_EMAILS make an admin whatever is stored). */
  role: PlatformRole;
  storedRole: PlatformRole;
  plan: PlanTier;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toAdminUserView = (u: DirectoryUser, adminEmails: readonly string[]): AdminUserView => ({
  id: u.id,
  email: u.email,
  displayName: u.displayName,
  role: effectiveRole(u, adminEmails),
  storedRole: u.role,
  plan: u.plan,
  disabled: u.disabled,
  createdAt: u.createdAt.toISOString(),
  updatedAt: u.updatedAt.toISOString(),
});
