import type { NewAuditRecord, ReadAuditRecord } from '../domain/audit-record';

export interface AuditQuery {
  action?: string;
  resourceType?: string;
  actorId?: string;
  applicationId?: string;
  from?: Date;
  to?: Date;
}

/** Whose records a reader may see: everything (platform admin), or their own and their teams'. */
export type AuditScope = { all: true } | { all: false; actorId: string; teamIds: string[] };

/** The append-only audit log: records are added and read, never changed or removed. */
export interface AuditLog {
  append(record: NewAuditRecord, at: Date): Promise<void>;
  /** Newest first, each with its actor's name and e-mail as they are now. */
  list(scope: AuditScope, query: AuditQuery, offset: number, limit: number): Promise<{ items: ReadAuditRecord[]; total: number }>;
  /** Whether the user logged in successfully before at all, and from `ip` (for "new login from a new address"). */
  previousLogins(actorId: string, ip: string): Promise<{ any: boolean; fromIp: boolean }>;
}

/** The teams a user owns or administers, whose records they may read (the teams area, when composed). */
export interface TeamAdminships {
  teamsAdministeredBy(userId: string): Promise<string[]>;
}

/** Where a resource a change was made to belongs: its application and that application's team. */
export interface AuditSubject {
  applicationId: string;
  teamId: string | null;
}

/**
 * Finds the application a resource belongs to (`resourceType` as the audit records name it: `application`,
 * `model_config`, `prompt`, `knowledge_document`, `api_key`, `webhook`, `custom_domain`, …); null when the
 * resource is unknown, of a type that belongs to no application, or not there.
 */
export interface AuditSubjects {
  locate(resourceType: string, resourceId: string): Promise<AuditSubject | null>;
}
