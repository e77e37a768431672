import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApplicationChoices, useApplicationContext } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { useAddDomain, useDomains, useTeam } from './queries';
import { s } from './strings';

/**
 * The caller's custom domains with their status and certificate, and the form to claim one. Inside an application's
 * page: that application's domains, and a new one is claimed for it.
 */
export default function Domains() {
  const current = useApplicationContext();
  const all = useDomains();
  const domains = current ? { ...all, data: all.data?.filter((d) => d.applicationId === current.id) } : all;
  const apps = useApplicationChoices();
  const appName = (id?: string) => apps.data?.find((a) => a.id === id)?.name ?? id ?? '';

  let list;
  if (domains.isPending) list = <Loading />;
  else if (domains.isError) list = <ErrorState error={domains.error} onRetry={() => void domains.refetch()} />;
  else if (!domains.data?.length) list = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else
    list = (
      <DataTable
        rows={domains.data ?? []}
        rowKey={(d) => d.id!}
        columns={[
          {
            header: s.columns.domain,
            rowHeader: true,
            cell: (d) => (
              <Link to={`/domains/${d.id}`} aria-label={s.open(d.domain ?? '')}>
                {d.domain}
              </Link>
            ),
          },
          { header: s.columns.application, cell: (d) => appName(d.applicationId) },
          { header: s.columns.status, cell: (d) => <span className={`ap-dm-status ap-dm-status--${d.status}`}>{s.status[d.status ?? ''] ?? d.status}</span> },
          { header: s.columns.certificate, cell: (d) => s.certificate.cell(d.ssl?.expiresAt ? formatDate(d.ssl.expiresAt) : null) },
        ]}
      />
    );

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <div className="ap-stack">
        <AddDomain />
        {list}
      </div>
    </>
  );
}

function AddDomain() {
  const current = useApplicationContext();
  const choices = useApplicationChoices();
  const apps = current ? { ...choices, isPending: false as const, isError: false as const, data: [current] } : choices;
  const add = useAddDomain();
  const navigate = useNavigate();
  const [domain, setDomain] = useState('');
  const [appId, setAppId] = useState('');
  const chosenApp = apps.data?.find((a) => a.id === appId) ?? apps.data?.[0];
  const team = useTeam(chosenApp?.teamId);
  if (apps.isPending) return <Loading />;
  if (apps.isError) return <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  if (!apps.data.length)
    return (
      <EmptyState title={s.add.title} action={<Link className="ap-button ap-button--primary" to="/applications">Create an application</Link>}>
        {s.noApplications}
      </EmptyState>
    );
  const chosen = chosenApp!.id!;
  // A team's application: claiming a domain for it needs Admin or above (the API answers 403 otherwise).
  const roleReason = chosenApp?.teamId ? (team.data ? (['owner', 'admin'].includes(team.data.role) ? null : s.add.role(team.data.role, team.data.name)) : s.add.roleLoading) : null;
  const error = add.error instanceof ApiError ? add.error : null;
  const domainError = error?.fieldMessage('domain') ?? (error && (error.status === 400 || error.status === 409) ? error.message : undefined);
  return (
    <form
      className="ap-card ap-stack"
      aria-labelledby="dm-add-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({ domain: domain.trim(), applicationId: chosen }, { onSuccess: (d) => navigate(`/domains/${d.id}`) });
      }}
    >
      <h2 id="dm-add-title">{s.add.title}</h2>
      <div className="ap-dm-add">
        <Field label={s.add.domain} hint={s.add.domainHint} placeholder="chat.example.com" value={domain} onChange={(e) => setDomain(e.target.value)} error={domainError} required autoComplete="off" spellCheck={false} />
        {current ? null : <div className="ap-field">
          <label htmlFor="dm-app">{s.add.application}</label>
          <select id="dm-app" className="ap-select" value={chosen} onChange={(e) => setAppId(e.target.value)}>
            {apps.data.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>}
      </div>
      {roleReason ? (
        <p className="ap-notice" id="dm-add-why">
          {roleReason}
        </p>
      ) : null}
      <ErrorText error={domainError ? null : add.error} />
      <ErrorText error={team.error} />
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={add.isPending} disabled={!domain.trim() || !!roleReason} aria-describedby={roleReason ? 'dm-add-why' : undefined}>
          <Plus aria-hidden size={16} />
          {s.add.submit}
        </Button>
      </div>
    </form>
  );
}
