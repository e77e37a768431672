import { useState } from 'react';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { t } from '../../lib/strings';
import { useSession } from '../../lib/use-session';
import { useApprove, useOverview, usePublished, useReject, useSetFeatured, type AdminItem, type Kind } from './queries';
import { s } from './strings';

const label = (item: AdminItem) => item.displayName || item.name;
const priceOf = (item: AdminItem) => (item.isPaid && item.price ? s.price(item.price) : s.free);

/** The review queue (approve, reject with a reason) and featuring, for administrators; others see the API's 403. */
export default function ReviewQueue() {
  const session = useSession();
  const isAdmin = session.status === 'signed-in' && session.user.role === 'admin';
  const overview = useOverview();
  const [announce, setAnnounce] = useState('');

  let body;
  if (overview.isPending) body = <Loading />;
  else if (overview.isError) body = <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
  else if (!overview.data.configured) body = <EmptyState title={s.notConfigured} />;
  else
    body = (
      <div className="ap-stack">
        <p className="ap-strong">{s.counts(overview.data.counts.pendingPlugins, overview.data.counts.pendingThemes)}</p>
        {(['plugins', 'themes'] as const).map((kind) => (
          <Queue key={kind} kind={kind} items={overview.data.pending[kind]} onDone={setAnnounce} />
        ))}
        {(['plugins', 'themes'] as const).map((kind) => (
          <Published key={kind} kind={kind} />
        ))}
      </div>
    );

  return (
    <>
      <PageHeader title={s.title} description={isAdmin ? s.description : s.adminOnly} />
      <p role="status" className={announce ? 'ap-notice' : 'ap-visually-hidden'}>
        {announce}
      </p>
      {body}
    </>
  );
}

function Queue({ kind, items, onDone }: { kind: Kind; items: AdminItem[]; onDone: (message: string) => void }) {
  const approve = useApprove();
  const reject = useReject();
  const [rejecting, setRejecting] = useState<AdminItem | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState('');
  const placed = fieldErrors(reject.error, ['reason'] as const).reason;

  return (
    <section className="ap-card ap-stack" aria-labelledby={`mka-queue-${kind}`}>
      <h2 className="ap-mka-title" id={`mka-queue-${kind}`}>{s.queue[kind]}</h2>
      <ErrorText error={approve.error} />
      {!items.length ? (
        <p className="ap-muted">{s.queueEmpty[kind]}</p>
      ) : (
        <DataTable
          rows={items}
          rowKey={(item) => item.id}
          columns={[
            {
              header: s.columns.name,
              rowHeader: true,
              cell: (item) => (
                <>
                  <span className="ap-strong">{label(item)}</span>
                  {item.description ? <span className="ap-muted ap-block ap-mka-text">{item.description}</span> : null}
                </>
              ),
            },
            { header: s.columns.author, cell: (item) => item.author },
            { header: s.columns.version, cell: (item) => item.version },
            { header: s.columns.category, cell: (item) => item.category },
            { header: s.columns.price, cell: priceOf },
            { header: s.columns.submitted, cell: (item) => (item.createdAt ? formatDate(item.createdAt) : '') },
          ]}
          actionsLabel={s.columns.actions}
          actions={(item) => (
            <>
              <Button
                variant="primary"
                aria-label={s.approveLabel(label(item))}
                busy={approve.isPending && approve.variables?.id === item.id}
                onClick={() => approve.mutate({ kind, id: item.id }, { onSuccess: () => onDone(s.approved(label(item))) })}
              >
                {s.approve}
              </Button>
              <Button
                variant="danger"
                aria-label={s.rejectLabel(label(item))}
                onClick={() => {
                  reject.reset();
                  setReason('');
                  setReasonError('');
                  setRejecting(item);
                }}
              >
                {s.reject}
              </Button>
            </>
          )}
        />
      )}
      <Dialog open={!!rejecting} onOpenChange={(open) => !open && setRejecting(null)} title={s.rejectTitle(rejecting ? label(rejecting) : '')} description={s.rejectBody}>
        <form
          className="ap-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!rejecting) return;
            if (!reason.trim()) return setReasonError(s.reasonRequired);
            const item = rejecting;
            reject.mutate(
              { kind, id: item.id, reason: reason.trim() },
              {
                onSuccess: () => {
                  setRejecting(null);
                  onDone(s.rejected(label(item)));
                },
              },
            );
          }}
        >
          <TextArea label={s.reason} rows={4} maxLength={2000} value={reason} error={reasonError || placed} onChange={(e) => setReason(e.target.value)} />
          <ErrorText error={placed ? null : reject.error} />
          <div className="ap-actions">
            <Button onClick={() => setRejecting(null)}>{t.cancel}</Button>
            <Button type="submit" variant="danger" busy={reject.isPending}>
              {s.confirmReject}
            </Button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}

function Published({ kind }: { kind: Kind }) {
  const list = usePublished(kind);
  const feature = useSetFeatured();
  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) body = <p className="ap-muted">{s.publishedEmpty[kind]}</p>;
  else
    body = (
      <DataTable
        rows={list.data}
        rowKey={(item) => item.id}
        columns={[
          { header: s.columns.name, rowHeader: true, cell: label },
          { header: s.columns.author, cell: (item) => item.author },
          { header: s.columns.version, cell: (item) => item.version },
          { header: s.columns.featured, cell: (item) => (item.featured ? s.yes : s.no) },
        ]}
        actionsLabel={s.columns.actions}
        actions={(item) => (
          <Button
            aria-label={item.featured ? s.unfeatureLabel(label(item)) : s.featureLabel(label(item))}
            busy={feature.isPending && feature.variables?.id === item.id}
            onClick={() => feature.mutate({ kind, id: item.id, featured: !item.featured })}
          >
            {item.featured ? s.unfeature : s.feature}
          </Button>
        )}
      />
    );
  return (
    <section className="ap-card ap-stack" aria-labelledby={`mka-published-${kind}`}>
      <h2 className="ap-mka-title" id={`mka-published-${kind}`}>{s.published[kind]}</h2>
      <ErrorText error={feature.error} />
      {body}
    </section>
  );
}
