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
  /** The application the change was made to (its configuration, keys, integrations); null for none. */
  applicationId: string | null;
  ip: string | null;
  userAgent: string | null;
  outcome: AuditOutcome;
  details: Record<string, unknown>;
}

export type NewAuditRecord = Omit<AuditRecord, 'id' | 'at' | 'teamId' | 'applicationId' | 'ip' | 'userAgent'> &
  Partial<Pick<AuditRecord, 'teamId' | 'applicationId' | 'ip' | 'userAgent'>>;

/** Who an actor id names, read with the records (a deleted account names no one). */
export interface AuditActor {
  name: string;
  email: string;
}

/** A stored record as read: the actor's name and e-mail as they are now, when the account still exists. */
export type ReadAuditRecord = AuditRecord & { actor: AuditActor | null };

/**
 * An audit record as the API shows it: the time as an ISO 8601 string, and the person behind `actorId` (their
 * display name and e-mail, resolved when read, null for no actor or a deleted account).
 */
export type AuditRecordView = Omit<AuditRecord, 'at'> & { at: string; actorName: string | null; actorEmail: string | null };

export const toAuditRecordView = ({ actor, ...r }: ReadAuditRecord): AuditRecordView => ({
  ...r,
  at: r.at.toISOString(),
  actorName: actor?.name ?? null,
  actorEmail: actor?.email ?? null,
});

/** Detail keys never stored, whatever a caller passes (records never hold secrets). */
const SECRET_KEY = /pass|secret|token|key$|apikey|authorization|cookie|signature/i;

export function withoutSecrets(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([k, v]) => !SECRET_KEY.test(k) && (typeof v !== 'object' || v === null)));
}
