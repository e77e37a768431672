import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Identity, IdentityProvider } from '../../../core/auth/domain/external-identity';
import type { IdentityRepository, NewIdentity } from '../../../core/auth/ports/identity-repository.port';
import type { LoginFlowStore } from '../../../core/auth/ports/login-flow-store.port';
import { one, rows, uniquely } from '../sql';

interface IdentityRow {
  id: string;
  user_id: string;
  provider: IdentityProvider;
  sso_config_id: string | null;
  subject: string;
  email: string | null;
  created_at: Date | string;
  last_login_at: Date | string;
}

const toIdentity = (r: IdentityRow): Identity => ({
  id: r.id,
  userId: r.user_id,
  provider: r.provider,
  ssoConfigId: r.sso_config_id,
  subject: r.subject,
  email: r.email,
  createdAt: new Date(r.created_at),
  lastLoginAt: new Date(r.last_login_at),
});

export class TypeOrmIdentityRepository implements IdentityRepository {
  constructor(private readonly db: DataSource) {}

  async find(provider: IdentityProvider, ssoConfigId: string | null, subject: string): Promise<Identity | null> {
    const row = await one<IdentityRow>(
      this.db,
      `SELECT * FROM user_identities WHERE provider = $1 AND COALESCE(sso_config_id::text, '') = $2 AND subject = $3`,
      [provider, ssoConfigId ?? '', subject],
    );
    return row && toIdentity(row);
  }

  async create(i: NewIdentity): Promise<Identity> {
    const row = await uniquely(
      () =>
        one<IdentityRow>(
          this.db,
          `INSERT INTO user_identities (user_id, provider, sso_config_id, subject, email) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [i.userId, i.provider, i.ssoConfigId, i.subject, i.email],
        ),
      () => 'This identity is already linked to an account',
    );
    return toIdentity(row!);
  }

  async touch(id: string, email: string | null, at: Date): Promise<void> {
    await this.db.query(`UPDATE user_identities SET last_login_at = $2, email = COALESCE($3, email) WHERE id = $1`, [id, at, email]);
  }

  async listForUser(userId: string): Promise<Identity[]> {
    return (await rows<IdentityRow>(this.db, `SELECT * FROM user_identities WHERE user_id = $1 ORDER BY created_at, id`, [userId])).map(toIdentity);
  }

  async deleteUnlessLast(userId: string, id: string): Promise<'deleted' | 'missing' | 'last'> {
    return this.db.transaction(async (tx) => {
      const user = await one<{ has_password: boolean }>(tx, `SELECT password_hash <> '' AS has_password FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      if (!user) return 'missing';
      const mine = await rows<{ id: string }>(tx, `SELECT id FROM user_identities WHERE user_id = $1`, [userId]);
      if (!mine.some((i) => i.id === id)) return 'missing';
      if (!user.has_password && mine.length <= 1) return 'last';
      await tx.query(`DELETE FROM user_identities WHERE id = $1 AND user_id = $2`, [id, userId]);
      return 'deleted';
    });
  }
}

/** Logins in progress, keyed by the SHA-256 of their random key; taking one deletes it in the same statement. */
export class TypeOrmLoginFlowStore implements LoginFlowStore {
  private puts = 0;

  constructor(private readonly db: DataSource) {}

  private static digest(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }

  async put(key: string, payload: Record<string, unknown>, expiresAt: Date): Promise<void> {
    // Now and then, clear what was never come back to (abandoned sign-ins).
    if (++this.puts % 100 === 1) await this.db.query(`DELETE FROM login_flows WHERE expires_at < now() - interval '1 hour'`);
    await this.db.query(`INSERT INTO login_flows (key_hash, payload, expires_at) VALUES ($1, $2::jsonb, $3)`, [
      TypeOrmLoginFlowStore.digest(key),
      JSON.stringify(payload),
      expiresAt,
    ]);
  }

  async take(key: string, now: Date): Promise<Record<string, unknown> | null> {
    const row = await one<{ payload: Record<string, unknown>; expires_at: Date | string }>(
      this.db,
      `DELETE FROM login_flows WHERE key_hash = $1 RETURNING payload, expires_at`,
      [TypeOrmLoginFlowStore.digest(key)],
    );
    return row && new Date(row.expires_at) > now ? row.payload : null;
  }

  async peek(key: string, now: Date): Promise<Record<string, unknown> | null> {
    const row = await one<{ payload: Record<string, unknown> }>(this.db, `SELECT payload FROM login_flows WHERE key_hash = $1 AND expires_at > $2`, [
      TypeOrmLoginFlowStore.digest(key),
      now,
    ]);
    return row?.payload ?? null;
  }
}
