import type { DataSource } from 'typeorm';
import type { DirectoryUser, UserDirectory, UserDirectoryFilter } from '../../../core/admin/ports/user-directory.port';
import type { PlanTier } from '../../../core/billing/domain/plans';
import type { PlatformRole } from '../../../core/shared/actor';
import { one, rows } from '../sql';

interface Row {
  id: string;
  email: string;
  display_name: string;
  role: PlatformRole;
  plan: PlanTier | null;
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
  total?: string | number;
}

const toUser = (r: Row): DirectoryUser => ({
  id: r.id,
  email: r.email,
  displayName: r.display_name,
  role: r.role,
  plan: r.plan ?? 'free',
  disabled: r.disabled,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** `%`, `_` and `\` in a search are matched as themselves. */
const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SELECT = `SELECT u.id, u.email, u.display_name, u.role, s.plan, u.disabled, u.created_at, u.updated_at
  FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id`;

/** The admin console's view of `users` with each account's plan (no subscription row: Free). */
export class TypeOrmUserDirectory implements UserDirectory {
  constructor(private readonly db: DataSource) {}

  async list(filter: UserDirectoryFilter, offset: number, limit: number): Promise<{ users: DirectoryUser[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.search !== undefined) {
      const p = param(likePattern(filter.search));
      where.push(`(u.email ILIKE ${p} ESCAPE '\\' OR u.display_name ILIKE ${p} ESCAPE '\\')`);
    }
    if (filter.role !== undefined) {
      where.push(`(CASE WHEN lower(u.email) = ANY(${param([...filter.adminEmails])}::text[]) THEN 'admin' ELSE u.role END) = ${param(filter.role)}`);
    }
    if (filter.plan !== undefined) where.push(`coalesce(s.plan, 'free') = ${param(filter.plan)}`);
    if (filter.disabled !== undefined) where.push(`u.disabled = ${param(filter.disabled)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const found = await rows<Row>(
      this.db,
      `SELECT *, count(*) OVER () AS total FROM (${SELECT} ${clause}) listed
       ORDER BY created_at DESC, id DESC OFFSET ${param(offset)} LIMIT ${param(limit)}`,
      params,
    );
    let total = found.length ? Number(found[0]!.total) : 0;
    if (!found.length && offset > 0) {
      const counted = await one<{ n: string | number }>(this.db, `SELECT count(*) AS n FROM (${SELECT} ${clause}) listed`, params.slice(0, -2));
      total = Number(counted?.n ?? 0);
    }
    return { users: found.map(toUser), total };
  }

  async find(id: string): Promise<DirectoryUser | null> {
    const row = await one<Row>(this.db, `${SELECT} WHERE u.id = $1`, [id]);
    return row && toUser(row);
  }
}
