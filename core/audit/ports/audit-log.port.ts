import type { AuditRecord, NewAuditRecord } from '../domain/audit-record';

export interface AuditQuery {
  action?: string;
  resourceType?: string;
  actorId?: string;
  from?: Date;
  to?: Date;
}

/** Whose records a reader may see: everything (platform admin), or their own and their teams'. */
export type AuditScope = { all: true } | { all: false; actorId: string; teamIds: string[] };

/** The append-only audit log: records are added and read, never changed or removed. */
export interface AuditLog {
  append(record: NewAuditRecord, at: Date): Promise<void>;
  /** Newest first. */
  list(scope: AuditScope, query: AuditQuery, offset: number, limit: number): Promise<{ items: AuditRecord[]; total: number }>;
  /** Whether the user logged in successfully before at all, and from `ip` (for "new login from a new address"). */
  previousLogins(actorId: string, ip: string): Promise<{ any: boolean; fromIp: boolean }>;
}

/** The teams a user owns or administers, whose records they may read (the teams area, when composed). */
export interface TeamAdminships {
  teamsAdministeredBy(userId: string): Promise<string[]>;
}
