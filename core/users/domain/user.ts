import type { PlatformRole } from '../../shared/actor';

export interface User {
  id: string;
  email: string;
  displayName: string;
  role: PlatformRole;
  passwordHash: string;
  disabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The user object of every response (ARCHITECTURE.md): never a password or hash. */
export interface PublicUser {
  id: string;
  email: string;
  displayName: string;
  role: PlatformRole;
  createdAt: string;
}

export const toPublicUser = (user: User, role: PlatformRole = user.role): PublicUser => ({
  id: user.id,
  email: user.email,
  displayName: user.displayName,
  role,
  createdAt: user.createdAt.toISOString(),
});

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** ADMIN_EMAILS holds the platform admins whatever their stored role. */
export const effectiveRole = (user: Pick<User, 'email' | 'role'>, adminEmails: readonly string[]): PlatformRole =>
  adminEmails.includes(normalizeEmail(user.email)) ? 'admin' : user.role;
