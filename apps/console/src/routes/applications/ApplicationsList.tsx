import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { shortId } from '../../components/ApplicationHeader';
import { formatDate } from '../../lib/format';
import { ApplicationForm } from './ApplicationForm';
import { PAGE_SIZE, useApplications, useDeleteApplication, type Application } from './queries';
import { s } from './strings';

/** The applications list: create, edit, delete (with confirmation), paged. */
export default function ApplicationsList() {
  const [page, setPage] = useState(1);
  const list = useApplications(page);
  const remove = useDeleteApplication();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Application | null>(null);
  const [deleting, setDeleting] = useState<Application | null>(null);

  const createButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Button>
  );

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.items.length && page === 1)
    body = (
      <EmptyState title={s.empty} action={<div className="ap-actions">{createButton}<Link className="ap-button ap-button--secondary" to="/start">{s.firstRun}</Link></div>}>
        {s.emptyBody}
      </EmptyState>
    );
  else {
    const pages = Math.max(1, Math.ceil(list.data.total / PAGE_SIZE));
    body = (
      <>
        <p className="ap-muted">
          {s.count(list.data.total)} · <Link to="/analytics">{s.allAnalytics}</Link>
        </p>
        <DataTable
          rows={list.data.items}
          rowKey={(app) => app.id!}
          columns={[
            {
              header: s.columns.name,
              rowHeader: true,
              cell: (app) => (
                <>
                  <Link className="ap-strong" to={`/applications/${app.id}/overview`} aria-label={s.openLabel(app.name ?? '', shortId(app.id!))}>
                    {app.name}
                  </Link>
                  {app.description ? <span className="ap-muted ap-block">{app.description}</span> : null}
                </>
              ),
            },
            { header: s.columns.slug, cell: (app) => <code>{app.slug}</code> },
            { header: s.columns.origins, cell: (app) => (app.allowedOrigins?.length ? app.allowedOrigins.join(', ') : s.none) },
            { header: s.columns.created, cell: (app) => (app.createdAt ? formatDate(app.createdAt) : s.none) },
          ]}
          actionsLabel={s.columns.actions}
          actions={(app) => (
            <>
              <Button variant="ghost" aria-label={s.editLabel(app.name ?? '')} onClick={() => setEditing(app)}>
                <Pencil aria-hidden size={16} />
              </Button>
              <Button variant="ghost" aria-label={s.deleteLabel(app.name ?? '')} onClick={() => setDeleting(app)}>
                <Trash2 aria-hidden size={16} />
              </Button>
            </>
          )}
        />
        {pages > 1 ? (
          <div className="ap-actions">
            <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {s.previous}
            </Button>
            <span className="ap-muted">
              {page} / {pages}
            </span>
            <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
              {s.next}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <>
      <PageHeader title={s.title} description={s.description} actions={list.data?.items.length ? createButton : undefined} />
      {body}
      <Dialog open={creating} onOpenChange={setCreating} title={s.createTitle}>
        <ApplicationForm onDone={() => setCreating(false)} />
      </Dialog>
      <Dialog open={!!editing} onOpenChange={(open) => !open && setEditing(null)} title={s.editTitle}>
        {editing ? <ApplicationForm key={editing.id} application={editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => {
          if (!open) {
            setDeleting(null);
            remove.reset();
          }
        }}
        title={s.deleteTitle(deleting?.name ?? '')}
        description={s.deleteBody}
        confirmLabel={s.deleteConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate(deleting.id!, { onSuccess: () => setDeleting(null) })}
      />
    </>
  );
}
