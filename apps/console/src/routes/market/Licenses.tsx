import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatDate, formatDateTime } from '../../lib/format';
import { LICENSES_PAGE_SIZE, useLicenses, type HeldLicense } from './queries';
import { s } from './strings';

/** The license's standing as its holder reads it: revoked, expired (by its date), or active. */
const standing = (l: HeldLicense): string => (l.status === 'revoked' ? 'revoked' : l.expiresAt && new Date(l.expiresAt) <= new Date() ? 'expired' : 'active');

function Installations({ license }: { license: HeldLicense }) {
  if (!license.installations.length) return <span className="ap-muted">{s.notInstalled}</span>;
  return (
    <ul className="ap-mk-installations">
      {license.installations.map((i) => (
        <li key={i.installationId}>
          <span className={`ap-mk-status ap-mk-status--${i.state}`}>{s.installationState[i.state] ?? i.state}</span>
          {i.graceEndsAt ? <p className="ap-mk-text">{s.graceUntil(formatDateTime(i.graceEndsAt))}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** "Your licenses": the paid plugins the caller holds a license for, newest first, paged. */
export default function Licenses() {
  const [page, setPage] = useState(1);
  const list = useLicenses(page);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / LICENSES_PAGE_SIZE)) : 1;

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.items.length)
    body = (
      <EmptyState title={s.noLicenses} action={<Link className="ap-button ap-button--primary" to="/market">{s.title}</Link>}>
        {s.noLicensesBody}
      </EmptyState>
    );
  else
    body = (
      <>
        <DataTable
          rows={list.data.items}
          rowKey={(l) => l.id}
          columns={[
            {
              header: s.licenseColumns.plugin,
              rowHeader: true,
              cell: (l) =>
                l.plugin.isActive ? (
                  <Link to={`/market/plugins/${l.plugin.id}`}>{l.plugin.displayName || l.plugin.name}</Link>
                ) : (
                  <>
                    <span className="ap-strong">{l.plugin.displayName || l.plugin.name}</span> <span className="ap-muted">({s.unpublished})</span>
                  </>
                ),
            },
            {
              header: s.licenseColumns.status,
              cell: (l) => {
                const at = standing(l);
                return <span className={`ap-mk-status ap-mk-status--license-${at}`}>{s.licenseStatus[at]}</span>;
              },
            },
            { header: s.licenseColumns.since, cell: (l) => formatDate(l.createdAt) },
            { header: s.licenseColumns.expires, cell: (l) => (l.expiresAt ? formatDate(l.expiresAt) : s.neverExpires) },
            { header: s.licenseColumns.installations, cell: (l) => <Installations license={l} /> },
          ]}
        />
        {pages > 1 ? (
          <div className="ap-actions">
            <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {s.previous}
            </Button>
            <span className="ap-muted">{s.pageOf(page, pages)}</span>
            <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {s.next}
            </Button>
          </div>
        ) : null}
      </>
    );

  return (
    <>
      <Link className="ap-button ap-button--ghost" to="/market">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <PageHeader title={s.licensesTitle} description={s.licensesDescription} />
      {body}
    </>
  );
}
