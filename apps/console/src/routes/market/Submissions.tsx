import { ArrowLeft } from 'lucide-react';
import { Link, useLocation } from 'react-router';
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
      <div className="ap-table-wrap">
        <table className="ap-table">
          <thead>
            <tr>
              <th scope="col">{s.submissionColumns.name}</th>
              <th scope="col">{s.submissionColumns.kind}</th>
              <th scope="col">{s.submissionColumns.version}</th>
              <th scope="col">{s.submissionColumns.status}</th>
              <th scope="col">{s.submissionColumns.submitted}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((item) => (
              <tr key={item.id}>
                <th scope="row">
                  {item.status === 'published' ? (
                    <Link to={`/market/${item.kind === 'theme' ? 'themes' : 'plugins'}/${item.id}`}>{item.displayName || item.name}</Link>
                  ) : (
                    <span className="ap-strong">{item.displayName || item.name}</span>
                  )}
                </th>
                <td>{s.kindName[item.kind] ?? item.kind}</td>
                <td>{item.version}</td>
                <td>
                  <span className={`ap-mk-status ap-mk-status--${item.status}`}>{s.status[item.status ?? ''] ?? item.status}</span>
                  {item.status === 'rejected' && item.rejectionReason ? <p className="ap-mk-text ap-mk-reason">{s.rejectedBecause(item.rejectionReason)}</p> : null}
                </td>
                <td>{item.createdAt ? formatDate(item.createdAt) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
