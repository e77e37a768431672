import type { PlanTier } from '../../billing/domain/plans';
import type { PlatformRole } from '../../shared/actor';

/** One account as the admin console lists it: never a password hash. */
export interface DirectoryUser {
  id: string;
  email: string;
  displayName: string;
  /** The stored role; the effective role may be `admin` through ADMIN_EMAILS. */
  role: PlatformRole;
  plan: PlanTier;
  disabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserDirectoryFilter {
  /** Part of the e-mail or display name, case-insensitive. */
  search?: string;
  /** The effective role: ADMIN_EMAILS count as admins. */
  role?: PlatformRole;
  plan?: PlanTier;
  disabled?: boolean;
  /** Normalized e-mails of ADMIN_EMAILS, for the effective role. */
  adminEmails: readonly string[];
}

/** Every account, filtered and paged, newest first (an account without a subscription row is on Free). */
export interface UserDirectory {
  list(filter: UserDirectoryFilter, offset: number, limit: number): Promise<{ users: DirectoryUser[]; total: number }>;
  find(id: string): Promise<DirectoryUser | null>;
}
