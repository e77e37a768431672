import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../../core/shared/errors';
import type { User } from '../../../core/users/domain/user';
import type { NewUser, UserRepository } from '../../../core/users/ports/user-repository.port';

/** Users in a Map, for unit tests of the core and for the repository contract suite. */
export class InMemoryUserRepository implements UserRepository {
  readonly users = new Map<string, User>();

  async create(u: NewUser): Promise<User> {
    if ([...this.users.values()].some((x) => x.email.toLowerCase() === u.email.toLowerCase())) {
      throw new ConflictError('An account with this e-mail already exists');
    }
    const now = new Date();
    const user: User = { id: randomUUID(), ...u, disabled: false, createdAt: now, updatedAt: now };
    this.users.set(user.id, user);
    return { ...user };
  }

  async findById(id: string) {
    const u = this.users.get(id);
    return u ? { ...u } : null;
  }

  async findByEmail(email: string) {
    const u = [...this.users.values()].find((x) => x.email.toLowerCase() === email.toLowerCase());
    return u ? { ...u } : null;
  }

  async update(id: string, changes: Parameters<UserRepository['update']>[1]) {
    const u = this.users.get(id);
    if (!u) return null;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    Object.assign(u, defined, { updatedAt: new Date() });
    return { ...u };
  }

  async delete(id: string) {
    this.users.delete(id);
  }
}
