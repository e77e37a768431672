export type AuditOutcome = 'success' | 'failure';

/** One record of a change of security or billing weight (SPEC 4.12, EVENTS.md); never holds secrets. */
export interface AuditRecord {
  id: string;
  at: Date;
  actorId: string | null;
  actorRole: string | null;
  action: string;
  resourceType: string;
  resourceId: string | null;
  teamId: string | null;
  ip: string | null;
  userAgent: string | null;
  outcome: AuditOutcome;
  details: Record<string, unknown>;
}

export type NewAuditRecord = Omit<AuditRecord, 'id' | 'at' | 'teamId' | 'ip' | 'userAgent'> &
  Partial<Pick<AuditRecord, 'teamId' | 'ip' | 'userAgent'>>;

/** An audit record as the API shows it: the time as an ISO 8601 string. */
export type AuditRecordView = Omit<AuditRecord, 'at'> & { at: string };

export const toAuditRecordView = (r: AuditRecord): AuditRecordView => ({ ...r, at: r.at.toISOString() });

/** Detail keys never stored, whatever a caller passes (records never hold secrets). */
const SECRET_KEY = /pass|secret|token|key$|apikey|authorization|cookie|signature/i;

export function withoutSecrets(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([k, v]) => !SECRET_KEY.test(k) && (typeof v !== 'object' || v === null)));
}
