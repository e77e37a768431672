import type { PlatformRole } from '../../shared/actor';
import type { User } from '../domain/user';

export interface NewUser {
  email: string;
  displayName: string;
  role: PlatformRole;
  passwordHash: string;
}

/** Users by id and e-mail (case-insensitive). `create` throws ConflictError for a taken e-mail. */
export interface UserRepository {
  create(user: NewUser): Promise<User>;
  findById(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  update(id: string, changes: Partial<Pick<User, 'displayName' | 'passwordHash' | 'role' | 'disabled'>>): Promise<User | null>;
  /** Removes the user and, by cascade, everything the user owns. */
  delete(id: string): Promise<void>;
}
