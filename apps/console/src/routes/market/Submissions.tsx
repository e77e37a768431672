import { ArrowLeft } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatDate } from '../../lib/format';
import { useSubmissions } from './queries';
import { s } from './strings';

/** The caller's submissions and their review: pending, approved, or rejected with the administrator's reason. */
export default function Submissions() {
  const list = useSubmissions();
  const location = useLocation();
  const submitted = (location.state as { submitted?: string } | null)?.submitted;

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length)
    body = (
      <EmptyState title={s.noSubmissions} action={<Link className="ap-button ap-button--primary" to="/market/submit">{s.submit}</Link>}>
        {s.noSubmissionsBody}
      </EmptyState>
    );
  else
    body = (
      <DataTable
        rows={list.data}
        rowKey={(item) => item.id}
        columns={[
          {
            header: s.submissionColumns.name,
            rowHeader: true,
            cell: (item) =>
              item.status === 'published' ? (
                <Link to={`/market/${item.kind === 'theme' ? 'themes' : 'plugins'}/${item.id}`}>{item.displayName || item.name}</Link>
              ) : (
                <span className="ap-strong">{item.displayName || item.name}</span>
              ),
          },
          { header: s.submissionColumns.kind, cell: (item) => s.kindName[item.kind] ?? item.kind },
          { header: s.submissionColumns.version, cell: (item) => item.version },
          {
            header: s.submissionColumns.status,
            cell: (item) => (
              <>
                <span className={`ap-mk-status ap-mk-status--${item.status}`}>{s.status[item.status ?? ''] ?? item.status}</span>
                {item.status === 'rejected' && item.rejectionReason ? <p className="ap-mk-text ap-mk-reason">{s.rejectedBecause(item.rejectionReason)}</p> : null}
              </>
            ),
          },
          { header: s.submissionColumns.submitted, cell: (item) => (item.createdAt ? formatDate(item.createdAt) : '') },
        ]}
      />
    );

  return (
    <>
      <Link className="ap-button ap-button--ghost" to="/market">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <PageHeader
        title={s.submissionsTitle}
        description={s.submissionsDescription}
        actions={
          <Link className="ap-button ap-button--primary" to="/market/submit">
            {s.submit}
          </Link>
        }
      />
      <p role="status" className={submitted ? 'ap-notice' : 'ap-visually-hidden'}>
        {submitted ?? ''}
      </p>
      {body}
    </>
  );
}
