import type { DataSource } from 'typeorm';
import type { AuditRecord, NewAuditRecord, ReadAuditRecord } from '../../../core/audit/domain/audit-record';
import type { AuditLog, AuditQuery, AuditScope } from '../../../core/audit/ports/audit-log.port';
import { affected, one, rows } from '../sql';

interface Row {
  id: string;
  at: Date | string;
  actor_id: string | null;
  actor_role: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  team_id: string | null;
  application_id: string | null;
  ip: string | null;
  user_agent: string | null;
  outcome: AuditRecord['outcome'];
  details: Record<string, unknown> | string;
  actor_name: string | null;
  actor_email: string | null;
}

const toRecord = (r: Row): ReadAuditRecord => ({
  id: r.id,
  at: new Date(r.at),
  actorId: r.actor_id,
  actorRole: r.actor_role,
  action: r.action,
  resourceType: r.resource_type,
  resourceId: r.resource_id,
  teamId: r.team_id,
  applicationId: r.application_id,
  ip: r.ip,
  userAgent: r.user_agent,
  outcome: r.outcome,
  details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
  actor: r.actor_email === null ? null : { name: r.actor_name ?? '', email: r.actor_email },
});

// The actor's name and e-mail are read with the record (the account as it is now; none once deleted).
const SELECT = `SELECT a.id, a.at, a.actor_id, a.actor_role, a.action, a.resource_type, a.resource_id, a.team_id, a.application_id, a.ip,
                       a.user_agent, a.outcome, a.details, u.display_name AS actor_name, u.email AS actor_email
                FROM audit_records a LEFT JOIN users u ON u.id = a.actor_id`;

/** `audit_records`: INSERT and SELECT only (a trigger refuses UPDATE and DELETE). */
export class TypeOrmAuditLog implements AuditLog {
  constructor(private readonly db: DataSource) {}

  async append(r: NewAuditRecord, at: Date): Promise<void> {
    await affected(
      this.db,
      `INSERT INTO audit_records (at, actor_id, actor_role, action, resource_type, resource_id, team_id, application_id, ip, user_agent, outcome, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)`,
      [at, r.actorId, r.actorRole, r.action, r.resourceType, r.resourceId, r.teamId ?? null, r.applicationId ?? null, r.ip ?? null, r.userAgent?.slice(0, 500) ?? null, r.outcome, JSON.stringify(r.details)],
    );
  }

  async list(scope: AuditScope, q: AuditQuery, offset: number, limit: number) {
    const params: unknown[] = [];
    const where: string[] = [];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (!scope.all) {
      params.push(scope.actorId, scope.teamIds);
      where.push(`(a.actor_id = $${params.length - 1} OR a.team_id = ANY($${params.length}::uuid[]))`);
    }
    // An action filter names one action (`api_key.create`) or a family (`api_key`).
    if (q.action) add((n) => `(a.action = $${n} OR a.action LIKE $${n} || '.%')`, q.action);
    if (q.resourceType) add((n) => `a.resource_type = $${n}`, q.resourceType);
    if (q.actorId) add((n) => `a.actor_id = $${n}`, q.actorId);
    if (q.applicationId) add((n) => `a.application_id = $${n}`, q.applicationId);
    if (q.from) add((n) => `a.at >= $${n}`, q.from);
    if (q.to) add((n) => `a.at <= $${n}`, q.to);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `${SELECT} ${clause} ORDER BY a.at DESC, a.seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, limit, offset]),
      one<{ n: string }>(this.db, `SELECT count(*) AS n FROM audit_records a ${clause}`, params),
    ]);
    return { items: items.map(toRecord), total: Number(count?.n ?? 0) };
  }

  async previousLogins(actorId: string, ip: string): Promise<{ any: boolean; fromIp: boolean }> {
    const row = await one<{ any: boolean; from_ip: boolean }>(
      this.db,
      `SELECT EXISTS (SELECT 1 FROM audit_records WHERE actor_id = $1 AND action = 'auth.login' AND outcome = 'success') AS any,
              EXISTS (SELECT 1 FROM audit_records WHERE actor_id = $1 AND action = 'auth.login' AND outcome = 'success' AND ip = $2) AS from_ip`,
      [actorId, ip],
    );
    return { any: !!row?.any, fromIp: !!row?.from_ip };
  }
}
