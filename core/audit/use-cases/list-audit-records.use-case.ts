import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { str, validate } from '../../shared/validation';
import { toAuditRecordView, type AuditRecordView } from '../domain/audit-record';
import type { AuditLog, AuditScope, TeamAdminships } from '../ports/audit-log.port';
import { ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const filters = yup.object({
  action: str().max(100),
  resource: str().max(100),
  user: str(),
  application: str(),
  from: str().matches(ISO, 'from must be an ISO 8601 date or time'),
  to: str().matches(ISO, 'to must be an ISO 8601 date or time'),
});

/**
 * `GET /api/audit?action=&resource=&user=&application=&from=&to=` (paged, newest first): a user sees their own
 * records, a team owner or admin their teams', a platform admin everything.
 */
export class ListAuditRecordsUseCase {
  constructor(private readonly deps: { audit: AuditLog; teams?: TeamAdminships }) {}

  async execute(query: Record<string, unknown>, actor: Actor): Promise<Page<AuditRecordView>> {
    const page = parsePageRequest(query);
    const one = (v: unknown) => (Array.isArray(v) ? v[0] : v === '' ? undefined : v);
    const f = await validate(filters, {
      action: one(query.action),
      resource: one(query.resource),
      user: one(query.user),
      application: one(query.application),
      from: one(query.from),
      to: one(query.to),
    });
    if (f.user !== undefined && !isUuid(f.user)) throw ValidationError.field('user', 'user must be a user id');
    if (f.application !== undefined && !isUuid(f.application)) throw ValidationError.field('application', 'application must be an application id');
    const from = f.from ? new Date(f.from) : undefined;
    const to = f.to ? new Date(f.to) : undefined;
    if ((from && Number.isNaN(from.getTime())) || (to && Number.isNaN(to.getTime()))) throw ValidationError.field('from', 'from and to must be valid dates');
    const scope: AuditScope =
      actor.role === 'admin' ? { all: true } : { all: false, actorId: actor.userId, teamIds: (await this.deps.teams?.teamsAdministeredBy(actor.userId)) ?? [] };
    const { items, total } = await this.deps.audit.list(
      scope,
      { action: f.action, resourceType: f.resource, actorId: f.user, applicationId: f.application, from, to },
      offsetOf(page),
      page.limit,
    );
    return { data: items.map(toAuditRecordView), total, page: page.page, limit: page.limit };
  }
}
