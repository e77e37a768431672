import type { Clock } from '../../shared/clock.port';
import { withoutSecrets, type NewAuditRecord } from '../domain/audit-record';
import type { AuditLog } from '../ports/audit-log.port';

/** Tells a user of a login from an address they never logged in from (the notifications area). */
export type NewAddressAlert = (userId: string, ip: string, userAgent: string | null) => Promise<void>;

/** Appends an audit record (secret-looking details left out); a login from a new address alerts its user. */
export class RecordAuditUseCase {
  constructor(private readonly deps: { audit: AuditLog; clock: Clock; newAddressAlert?: NewAddressAlert }) {}

  async execute(record: NewAuditRecord): Promise<void> {
    const login = record.action === 'auth.login' && record.outcome === 'success' && record.actorId && record.ip;
    const before = login ? await this.deps.audit.previousLogins(record.actorId!, record.ip!) : null;
    await this.deps.audit.append({ ...record, details: withoutSecrets(record.details) }, this.deps.clock.now());
    if (before?.any && !before.fromIp) await this.deps.newAddressAlert?.(record.actorId!, record.ip!, record.userAgent ?? null);
  }
}
