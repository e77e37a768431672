import { Download, Trash2, Upload as UploadIcon } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDateTime, formatNumber } from '../../lib/format';
import { t } from '../../lib/strings';
import { downloadUpload, MAX_BYTES, PAGE_SIZE, useDeleteUpload, useUploadFile, useUploads, type Upload } from './queries';
import { s } from './strings';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,application/json,application/zip,text/plain,text/csv,text/markdown,.md,.csv,.json,.zip,.txt';

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${formatNumber(Math.round(bytes / 102.4) / 10)} KB` : `${formatNumber(Math.round(bytes / 104857.6) / 10)} MB`);

/** Your uploads: upload (limits shown, refusals said), list with paging, download, delete. */
export default function Uploads() {
  const [page, setPage] = useState(1);
  const uploads = useUploads(page);
  const upload = useUploadFile();
  const remove = useDeleteUpload();
  const input = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [deleting, setDeleting] = useState<Upload | null>(null);
  const [downloadError, setDownloadError] = useState<unknown>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) return;
    if (file.size > MAX_BYTES) return setMessage({ ok: false, text: s.refused(file.name, 'larger than 10 MB.') });
    setMessage(null);
    upload.mutate(file, {
      onSuccess: (stored) => {
        setMessage({ ok: true, text: s.uploaded(stored.fileName ?? file.name) });
        setPage(1);
        if (input.current) input.current.value = '';
      },
      onError: (error) => setMessage({ ok: false, text: s.refused(file.name, error.message) }),
    });
  };

  let list;
  if (uploads.isPending) list = <Loading />;
  else if (uploads.isError) list = <ErrorState error={uploads.error} onRetry={() => void uploads.refetch()} />;
  else if (!uploads.data.items.length && page === 1) list = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else {
    const pages = Math.max(1, Math.ceil(uploads.data.total / PAGE_SIZE));
    list = (
      <>
        <DataTable
          rows={uploads.data.items}
          rowKey={(u) => u.id!}
          columns={[
            { header: s.columns.name, cell: (u) => u.fileName },
            { header: s.columns.kind, cell: (u) => u.mimeType },
            { header: s.columns.size, cell: (u) => size(u.size ?? 0) },
            { header: s.columns.created, cell: (u) => (u.createdAt ? formatDateTime(u.createdAt) : '') },
            {
              header: <span className="ap-visually-hidden">{t.actions}</span>,
              cell: (u) => (
                <div className="ap-actions">
                  <Button aria-label={s.download(u.fileName!)} onClick={() => downloadUpload(u).then(() => setDownloadError(null), setDownloadError)}>
                    <Download aria-hidden size={16} />
                  </Button>
                  <Button aria-label={s.remove(u.fileName!)} variant="danger" onClick={() => setDeleting(u)}>
                    <Trash2 aria-hidden size={16} />
                  </Button>
                </div>
              ),
            },
          ]}
        />
        {pages > 1 ? (
          <nav className="ap-actions" aria-label={s.title}>
            <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {s.previous}
            </Button>
            <span>{s.page(page, pages)}</span>
            <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {s.next}
            </Button>
          </nav>
        ) : null}
      </>
    );
  }

  return (
    <div className="ap-stack">
      <PageHeader title={s.title} description={s.description} />
      <form className="ap-card ap-stack" onSubmit={submit}>
        <div className="ap-field">
          <label htmlFor="upload-file">{s.choose}</label>
          <input id="upload-file" ref={input} type="file" accept={ACCEPT} aria-describedby="upload-limits" required />
          <p className="ap-field__hint" id="upload-limits">
            {s.limits}
          </p>
        </div>
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={upload.isPending}>
            <UploadIcon aria-hidden size={16} />
            {s.upload}
          </Button>
          {message ? (
            <p className={message.ok ? 'ap-muted' : 'ap-field__error'} role={message.ok ? 'status' : 'alert'}>
              {message.text}
            </p>
          ) : null}
        </div>
      </form>
      {downloadError ? <ErrorText error={downloadError} /> : null}
      {list}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? s.removeTitle(deleting.fileName!) : ''}
        description={s.removeBody}
        confirmLabel={s.removeConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(deleting!.id!, { onSuccess: () => setDeleting(null) })}
      />
    </div>
  );
}
