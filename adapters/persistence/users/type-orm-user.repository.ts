import type { DataSource } from 'typeorm';
import type { PlatformRole } from '../../../core/shared/actor';
import type { User } from '../../../core/users/domain/user';
import type { NewUser, UserRepository } from '../../../core/users/ports/user-repository.port';
import { one, uniquely } from '../sql';

interface UserRow {
  id: string;
  email: string;
  display_name: string;
  role: PlatformRole;
  password_hash: string;
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  displayName: r.display_name,
  role: r.role,
  passwordHash: r.password_hash,
  disabled: r.disabled,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS: Record<string, string> = { displayName: 'display_name', passwordHash: 'password_hash', role: 'role', disabled: 'disabled' };

export class TypeOrmUserRepository implements UserRepository {
  constructor(private readonly db: DataSource) {}

  async create(user: NewUser): Promise<User> {
    const row = await uniquely(
      () =>
        one<UserRow>(
          this.db,
          `INSERT INTO users (email, display_name, role, password_hash) VALUES ($1, $2, $3, $4) RETURNING *`,
          [user.email, user.displayName, user.role, user.passwordHash],
        ),
      () => 'An account with this e-mail already exists',
    );
    return toUser(row!);
  }

  async findById(id: string): Promise<User | null> {
    const row = await one<UserRow>(this.db, `SELECT * FROM users WHERE id = $1`, [id]);
    return row && toUser(row);
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await one<UserRow>(this.db, `SELECT * FROM users WHERE lower(email) = lower($1)`, [email]);
    return row && toUser(row);
  }

  async update(id: string, changes: Parameters<UserRepository['update']>[1]): Promise<User | null> {
    const entries = Object.entries(changes).filter(([k, v]) => v !== undefined && COLUMNS[k]);
    const sets = entries.map(([k], i) => `${COLUMNS[k]} = $${i + 2}`);
    const row = await one<UserRow>(
      this.db,
      `UPDATE users SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...entries.map(([, v]) => v)],
    );
    return row && toUser(row);
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM users WHERE id = $1`, [id]);
  }
}
