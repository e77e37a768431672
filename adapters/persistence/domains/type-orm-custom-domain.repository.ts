import type { DataSource } from 'typeorm';
import type { CustomDomain, DomainSettings, DomainStatus } from '../../../core/domains/domain/custom-domain';
import type { CustomDomainChanges, CustomDomainRepository } from '../../../core/domains/ports/custom-domain-repository.port';
import { visibleScopedResources } from '../teams/visibility';
import { NotFoundError } from '../../../core/shared/errors';
import { one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  application_id: string;
  domain: string;
  status: DomainStatus;
  verification_token: string;
  failure_reason: string | null;
  settings: DomainSettings;
  verified_at: Date | null;
  last_checked_at: Date | null;
  activated_at: Date | null;
  ssl_expires_at: Date | null;
  ssl_checked_at: Date | null;
  ssl_error: string | null;
  created_at: Date;
}

const date = (d: Date | null) => (d ? new Date(d) : null);
const toDomain = (r: Row): CustomDomain => ({
  id: r.id,
  ownerId: r.owner_id,
  applicationId: r.application_id,
  domain: r.domain,
  status: r.status,
  verificationToken: r.verification_token,
  failureReason: r.failure_reason,
  settings: Object.assign({ redirectWww: false, forceHttps: false, customHeaders: {} }, r.settings),
  verifiedAt: date(r.verified_at),
  lastCheckedAt: date(r.last_checked_at),
  activatedAt: date(r.activated_at),
  sslExpiresAt: date(r.ssl_expires_at),
  sslCheckedAt: date(r.ssl_checked_at),
  sslError: r.ssl_error,
  createdAt: new Date(r.created_at),
});

const COLUMNS: Record<keyof CustomDomainChanges, { column: string; json?: boolean }> = {
  status: { column: 'status' },
  failureReason: { column: 'failure_reason' },
  settings: { column: 'settings', json: true },
  verifiedAt: { column: 'verified_at' },
  lastCheckedAt: { column: 'last_checked_at' },
  activatedAt: { column: 'activated_at' },
  sslExpiresAt: { column: 'ssl_expires_at' },
  sslCheckedAt: { column: 'ssl_checked_at' },
  sslError: { column: 'ssl_error' },
};

function assignments(changes: CustomDomainChanges, first: number): { sets: string[]; params: unknown[] } {
  const entries = (Object.entries(changes) as [keyof CustomDomainChanges, unknown][]).filter(([k, v]) => v !== undefined && COLUMNS[k]);
  return {
    sets: entries.map(([k], i) => `${COLUMNS[k].column} = $${i + first}${COLUMNS[k].json ? '::jsonb' : ''}`),
    params: entries.map(([k, v]) => (COLUMNS[k].json ? JSON.stringify(v) : v)),
  };
}

export class TypeOrmCustomDomainRepository implements CustomDomainRepository {
  constructor(private readonly db: DataSource) {}

  async create(d: { ownerId: string; applicationId: string; domain: string; verificationToken: string }): Promise<CustomDomain> {
    const row = await uniquely(
      () =>
        one<Row>(
          this.db,
          `INSERT INTO custom_domains (owner_id, application_id, domain, verification_token) VALUES ($1, $2, $3, $4) RETURNING *`,
          [d.ownerId, d.applicationId, d.domain, d.verificationToken],
        ),
      () => `${d.domain} is already connected to an application`,
    );
    return toDomain(row!);
  }

  async findById(id: string): Promise<CustomDomain | null> {
    const row = await one<Row>(this.db, `SELECT * FROM custom_domains WHERE id = $1`, [id]);
    return row && toDomain(row);
  }

  async findByDomain(domain: string): Promise<CustomDomain | null> {
    const row = await one<Row>(this.db, `SELECT * FROM custom_domains WHERE domain = $1`, [domain]);
    return row && toDomain(row);
  }

  async listByOwner(ownerId: string, offset: number, limit: number, teamId?: string | null): Promise<{ items: CustomDomain[]; total: number }> {
    const team = teamId ? [teamId] : [];
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT * FROM custom_domains WHERE ${visibleScopedResources(teamId, '$1', '$4')} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [ownerId, limit, offset, ...team]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM custom_domains WHERE ${visibleScopedResources(teamId, '$1', '$2')}`, [ownerId, ...team]),
    ]);
    return { items: items.map(toDomain), total: count?.n ?? 0 };
  }

  async listActive(): Promise<CustomDomain[]> {
    return (await rows<Row>(this.db, `SELECT * FROM custom_domains WHERE status = 'active' ORDER BY domain`)).map(toDomain);
  }

  async update(id: string, changes: CustomDomainChanges): Promise<CustomDomain> {
    const { sets, params } = assignments(changes, 2);
    if (!sets.length) {
      const found = await this.findById(id);
      if (!found) throw new NotFoundError('Custom domain');
      return found;
    }
    const row = await one<Row>(this.db, `UPDATE custom_domains SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, [id, ...params]);
    if (!row) throw new NotFoundError('Custom domain');
    return toDomain(row);
  }

  async transition(id: string, from: DomainStatus[], changes: CustomDomainChanges): Promise<CustomDomain | null> {
    const { sets, params } = assignments(changes, 3);
    const row = await one<Row>(
      this.db,
      `UPDATE custom_domains SET ${sets.join(', ')} WHERE id = $1 AND status = ANY($2::text[]) RETURNING *`,
      [id, from, ...params],
    );
    return row && toDomain(row);
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM custom_domains WHERE id = $1`, [id]);
  }
}
