import { AlertTriangle, CheckCircle2, Loader2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatDate } from '../../lib/format';
import { DocumentPanel } from './DocumentPanel';
import { useDeleteDocument, useDocuments, type KnowledgeDocument } from './queries';
import { formatBytes, s } from './strings';

function Status({ doc }: { doc: KnowledgeDocument }) {
  if (doc.status === 'error')
    return (
      <span className="ap-kn-status ap-kn-status--error">
        <AlertTriangle aria-hidden size={16} />
        {s.failed(doc.error ?? '')}
      </span>
    );
  if (doc.status === 'processing')
    return (
      <span className="ap-kn-status">
        <Loader2 aria-hidden size={16} className="ap-spin" />
        {s.progress(doc.progress ?? 0)}
        <progress max={100} value={doc.progress ?? 0} aria-label={s.progress(doc.progress ?? 0)} />
      </span>
    );
  return (
    <span className="ap-kn-status">
      <CheckCircle2 aria-hidden size={16} />
      {s.status.ready}
      {doc.reindexing ? ` · ${doc.reindexing.version ? s.replacing(doc.reindexing.version) : s.reindexing} (${doc.reindexing.progress ?? 0}%)` : ''}
      {(doc.version ?? 1) > 1 ? ` · ${s.version(doc.version ?? 1)}` : ''}
    </span>
  );
}

/** A knowledge base's documents (an application's own, or one of its own) with their live status; delete after confirmation. */
export function Documents({ baseId }: { baseId?: string }) {
  const list = useDocuments(baseId);
  const remove = useDeleteDocument(baseId);
  const [deleting, setDeleting] = useState<KnowledgeDocument | null>(null);
  const [managing, setManaging] = useState<string | null>(null);
  const managed = list.data?.find((d) => d.id === managing);

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) body = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <DataTable
        rows={list.data}
        rowKey={(doc) => doc.id!}
        columns={[
          {
            header: s.columns.name,
            rowHeader: true,
            cell: (doc) => (
              <>
                <span className="ap-strong">{doc.fileName}</span>
                <span className="ap-muted ap-block">{(doc.format ?? '').toUpperCase()}</span>
              </>
            ),
          },
          { header: s.columns.status, cell: (doc) => <Status doc={doc} /> },
          {
            header: s.columns.chunks,
            cell: (doc) => (
              <>
                {doc.status === 'ready' ? s.chunks(doc.chunkCount ?? 0) : '—'}
                {doc.chunkSize ? <span className="ap-muted ap-block">{s.chunkSettings(doc.chunkSize, doc.chunkOverlap ?? 0)}</span> : null}
              </>
            ),
          },
          { header: s.columns.size, cell: (doc) => formatBytes(doc.size ?? 0) },
          { header: s.columns.added, cell: (doc) => (doc.createdAt ? formatDate(doc.createdAt) : '—') },
        ]}
        actionsLabel={s.columns.actions}
        actions={(doc) => (
          <>
            {doc.status === 'ready' ? (
              <Button variant="ghost" aria-label={s.manage(doc.fileName ?? '')} onClick={() => setManaging(doc.id!)}>
                {s.manageButton}
              </Button>
            ) : null}
            <Button variant="ghost" aria-label={s.deleteLabel(doc.fileName ?? '')} onClick={() => setDeleting(doc)}>
              <Trash2 aria-hidden size={16} />
            </Button>
          </>
        )}
      />
    );

  return (
    <section className="ap-stack" aria-labelledby="kn-documents">
      <h2 id="kn-documents">{s.documents}</h2>
      {body}
      {managed ? <DocumentPanel key={managed.id} baseId={baseId} doc={managed} onClose={() => setManaging(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => {
          if (!open) {
            setDeleting(null);
            remove.reset();
          }
        }}
        title={s.deleteTitle(deleting?.fileName ?? '')}
        description={s.deleteBody}
        confirmLabel={s.deleteConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id!, { onSuccess: () => setDeleting(null) })}
      />
    </section>
  );
}
