import type { AuditLog, AuditSubjects } from '../../../core/audit/ports/audit-log.port';
import { token } from '../../shared/tokens';

export const AUDIT_TOKENS = {
  AuditLog: token<AuditLog>('AuditLog'),
  AuditSubjects: token<AuditSubjects>('AuditSubjects'),
} as const;
