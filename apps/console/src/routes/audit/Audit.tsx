import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { PAGE_SIZE, useAudit, type AuditFilters } from './queries';
import { s } from './strings';

type Values = { action: string; resource: string; application: string; user: string; from: string; to: string };
const KEYS = ['action', 'resource', 'application', 'user', 'from', 'to'] as const;

/** `YYYY-MM-DD` from a date input as the start (from) or end (to) of that day in the browser's time zone. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (end) {
    d.setDate(d.getDate() + 1);
    d.setMilliseconds(-1);
  }
  return d.toISOString();
}

/**
 * The audit log with its filters (action or family, resource, application, user, dates), paged; "By" names the
 * person (display name and e-mail, the id when the account is gone); details shown as text.
 */
export default function Audit() {
  const [params, setParams] = useSearchParams();
  const values: Values = {
    action: params.get('action') ?? '',
    resource: params.get('resource') ?? '',
    application: params.get('application') ?? '',
    user: params.get('user') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const apps = useApplicationChoices();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters: AuditFilters = {
    ...(values.action.trim() ? { action: values.action.trim() } : {}),
    ...(values.resource ? { resource: values.resource } : {}),
    ...(values.application ? { application: values.application } : {}),
    ...(values.user.trim() ? { user: values.user.trim() } : {}),
    ...(dayBound(values.from, false) ? { from: dayBound(values.from, false) } : {}),
    ...(dayBound(values.to, true) ? { to: dayBound(values.to, true) } : {}),
  };
  const list = useAudit(filters, page);
  const form = useForm<Values>({ values });
  const apply = form.handleSubmit((v) => {
    const next = new URLSearchParams();
    for (const k of KEYS) if (v[k].trim()) next.set(k, v[k].trim());
    setParams(next);
  });
  const goTo = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    setParams(next);
  };

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.items.length) body = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else {
    const pages = Math.max(1, Math.ceil(list.data.total / PAGE_SIZE));
    body = (
      <>
        <DataTable
          rows={list.data.items}
          rowKey={(r) => r.id!}
          columns={[
            { header: s.columns.at, rowHeader: true, cell: (r) => (r.at ? formatDateTime(r.at) : '') },
            { header: s.columns.action, cell: (r) => <code>{r.action}</code> },
            {
              header: s.columns.resource,
              cell: (r) => (
                <>
                  {r.resourceType}
                  {r.resourceId ? <div className="ap-muted ap-audit-id">{r.resourceId}</div> : null}
                </>
              ),
            },
            {
              header: s.columns.actor,
              cell: (r) => (
                <>
                  {r.actorEmail ? (
                    <>
                      <span>{r.actorName || r.actorEmail}</span>
                      {r.actorName ? <div className="ap-muted">{r.actorEmail}</div> : null}
                    </>
                  ) : (
                    <span className="ap-audit-id">{r.actorId ?? '—'}</span>
                  )}
                  {r.actorRole ? <div className="ap-muted">{r.actorRole}</div> : null}
                </>
              ),
            },
            { header: s.columns.outcome, cell: (r) => s.outcomes[r.outcome ?? ''] ?? r.outcome },
            {
              header: s.columns.ip,
              cell: (r) => (
                <>
                  {r.ip ?? ''}
                  {r.userAgent ? <div className="ap-muted ap-audit-agent">{r.userAgent}</div> : null}
                </>
              ),
            },
            { header: s.columns.details, cell: (r) => <code className="ap-audit-details">{r.details && Object.keys(r.details).length ? JSON.stringify(r.details) : ''}</code> },
          ]}
        />
        <div className="ap-actions" aria-label={s.total(list.data.total)}>
          <span className="ap-muted">{s.total(list.data.total)}</span>
          {pages > 1 ? (
            <>
              <Button disabled={page <= 1} onClick={() => goTo(page - 1)}>
                {s.previous}
              </Button>
              <span>{s.page(page, pages)}</span>
              <Button disabled={page >= pages} onClick={() => goTo(page + 1)}>
                {s.next}
              </Button>
            </>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <div className="ap-stack">
        <form className="ap-card ap-audit-filters" noValidate onSubmit={apply} aria-label={s.filters}>
          <Field label={s.action} hint={s.actionHint} {...form.register('action')} />
          <div className="ap-field">
            <label htmlFor="audit-resource">{s.resource}</label>
            <select id="audit-resource" className="ap-select" {...form.register('resource')}>
              <option value="">{s.anyResource}</option>
              {s.resources.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <div className="ap-field">
            <label htmlFor="audit-application">{s.application}</label>
            <select id="audit-application" className="ap-select" {...form.register('application')}>
              <option value="">{s.anyApplication}</option>
              {apps.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
              {values.application && apps.data && !apps.data.some((a) => a.id === values.application) ? <option value={values.application}>{values.application}</option> : null}
            </select>
          </div>
          <Field label={s.user} {...form.register('user')} />
          <Field label={s.from} type="date" {...form.register('from')} />
          <Field label={s.to} type="date" {...form.register('to')} />
          <div className="ap-actions">
            <Button type="submit" variant="primary">
              {s.apply}
            </Button>
            <Button onClick={() => setParams(new URLSearchParams())}>{s.clear}</Button>
          </div>
        </form>
        {body}
      </div>
    </>
  );
}
