import { TEAM_TOKENS } from './teams.tokens';
import type { Container } from 'inversify';
import { auditMiddleware } from '../../../adapters/http/audit/audit.middleware';
import { auditRouter } from '../../../adapters/http/audit/audit.router';
import { TypeOrmAuditLog } from '../../../adapters/persistence/audit/type-orm-audit-log';
import { TypeOrmAuditSubjects } from '../../../adapters/persistence/audit/type-orm-audit-subjects';
import { ListAuditRecordsUseCase } from '../../../core/audit/use-cases/list-audit-records.use-case';
import { RecordAuditUseCase } from '../../../core/audit/use-cases/record-audit.use-case';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { NOTIFICATION_TOKENS } from './notifications.tokens';
import { AUDIT_TOKENS } from './audit.tokens';

/** The audit log (SPEC 4.12; EVENTS.md): written for every audited request, read through GET /api/audit. */
export const auditModule: AppModule = {
  name: 'audit',
  bind(c: Container) {
    provide(c, AUDIT_TOKENS.AuditLog, (get) => new TypeOrmAuditLog(get(TOKENS.DataSource)));
    provide(c, AUDIT_TOKENS.AuditSubjects, (get) => new TypeOrmAuditSubjects(get(TOKENS.DataSource)));
    provide(c, RecordAuditUseCase, (get) => {
      const notify = c.isBound(NOTIFICATION_TOKENS.Notify) ? get(NOTIFICATION_TOKENS.Notify) : undefined;
      return new RecordAuditUseCase({
        audit: get(AUDIT_TOKENS.AuditLog),
        clock: get(TOKENS.Clock),
        newAddressAlert: notify
          ? (userId, ip, userAgent) =>
              notify.send({
                userId,
                type: 'warning',
                category: 'security',
                title: 'New sign-in from a new address',
                body: `Your account was signed in to from ${ip}${userAgent ? ` (${userAgent.slice(0, 120)})` : ''}. If this was not you, change your password.`,
                actionUrl: '/settings/security',
              })
          : undefined,
      });
    });
    provide(c, ListAuditRecordsUseCase, (get) => new ListAuditRecordsUseCase({ audit: get(AUDIT_TOKENS.AuditLog), teams: c.isBound(TEAM_TOKENS.TeamRepository) ? get(TEAM_TOKENS.TeamRepository) : undefined }));
  },
  middleware: (c) => [auditMiddleware(resolve(c, RecordAuditUseCase), resolve(c, TOKENS.Logger), resolve(c, AUDIT_TOKENS.AuditSubjects))],
  routers: (c) => [auditRouter({ auth: resolve(c, TOKENS.AuthMiddleware), list: resolve(c, ListAuditRecordsUseCase) })],
};
