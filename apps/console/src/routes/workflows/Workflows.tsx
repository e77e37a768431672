import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatDate } from './format';
import { useWorkflows, useWriteAccess } from './queries';
import { s } from './strings';

function List({ applicationId }: { applicationId: string }) {
  const list = useWorkflows(applicationId);
  const { canWrite } = useWriteAccess(applicationId);
  const create = !canWrite ? (
    <div className="ap-stack">
      <Button disabled aria-describedby="wf-viewer">
        <Plus aria-hidden size={16} />
        {s.create}
      </Button>
      <p id="wf-viewer" className="ap-field__hint">
        {s.viewerNote}
      </p>
    </div>
  ) : (
    <Link className="ap-button ap-button--primary" to={`/workflows/new?app=${applicationId}`}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Link>
  );
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data.length)
    return (
      <EmptyState title={s.empty} action={create}>
        {s.emptyBody}
      </EmptyState>
    );
  return (
    <>
      <div className="ap-actions">{create}</div>
      <DataTable
        rows={list.data}
        rowKey={(w) => w.id!}
        columns={[
          { header: s.columns.name, rowHeader: true, cell: (w) => <Link to={`/workflows/${w.id}`}>{w.name}</Link> },
          { header: s.columns.steps, cell: (w) => s.stepsCount(w.steps?.length ?? 0) },
          { header: s.columns.version, className: 'ap-num', cell: (w) => w.version },
          { header: s.columns.state, cell: (w) => (w.paused ? s.paused : s.active) },
          { header: s.columns.updated, cell: (w) => formatDate(w.updatedAt) },
        ]}
      />
    </>
  );
}

/** Workflows of the chosen application, with the way to the templates gallery. */
export default function Workflows() {
  return (
    <>
      <PageHeader
        title={s.title}
        description={s.description}
        actions={
          <Link className="ap-button ap-button--secondary" to="/workflows/templates">
            {s.templates}
          </Link>
        }
      />
      <ApplicationScope id="wf-app" emptyBody={s.noApplicationsBody}>
        {(applicationId) => <List applicationId={applicationId} />}
      </ApplicationScope>
    </>
  );
}
