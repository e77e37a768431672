import { ListPlus, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { Field, TextArea } from '../../components/Field';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import {
  downloadAnnotations,
  PAGE_SIZE,
  useAnnotations,
  useAnnotationSettings,
  useDeleteAnnotation,
  useSaveAnnotation,
  useSaveAnnotationSettings,
  type Annotation,
  type AnnotationSettings,
} from './queries';
import { s } from './strings';
import { ToDatasetDialog } from './ToDatasetDialog';

const a = s.annotations;

/** An application's annotations: the replies switch and threshold, the list (search, edit, delete), and the exports. */
export default function Annotations({ applicationId }: { applicationId: string }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Annotation | 'new' | null>(null);
  const [removing, setRemoving] = useState<Annotation | null>(null);
  const [adding, setAdding] = useState<Annotation | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);
  const list = useAnnotations(applicationId, search, page);
  const remove = useDeleteAnnotation(applicationId);
  const searchForm = useForm<{ q: string }>({ defaultValues: { q: '' } });
  const exportAs = (format: 'csv' | 'jsonl') => {
    setExportError(null);
    downloadAnnotations(applicationId, format).catch(setExportError);
  };

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.items.length) body = <EmptyState title={a.empty}>{a.emptyBody}</EmptyState>;
  else {
    body = (
      <>
        <DataTable
          aria-label={a.title}
          rows={list.data.items}
          rowKey={(r) => r.id!}
          columns={[
            { header: a.columns.question, rowHeader: true, cell: (r) => r.question },
            { header: a.columns.answer, cell: (r) => <span className="ap-logs-answer">{r.answer}</span> },
            { header: a.columns.kind, cell: (r) => a.kinds[r.kind ?? ''] ?? r.kind },
            { header: a.columns.used, cell: (r) => (r.hitCount ? a.used(r.hitCount) : '—') },
          ]}
          actionsLabel={a.columns.actions}
          actions={(r) => (
            <>
              <button type="button" className="ap-icon-button" aria-label={a.edit(r.question ?? '')} onClick={() => setEditing(r)}>
                <Pencil aria-hidden size={16} />
              </button>
              <button type="button" className="ap-icon-button" aria-label={a.toDataset(r.question ?? '')} onClick={() => setAdding(r)}>
                <ListPlus aria-hidden size={16} />
              </button>
              <button type="button" className="ap-icon-button" aria-label={a.remove(r.question ?? '')} onClick={() => setRemoving(r)}>
                <Trash2 aria-hidden size={16} />
              </button>
            </>
          )}
        />
        <Pager total={a.total(list.data.total)} count={list.data.total} page={page} pageSize={PAGE_SIZE} onPage={setPage} />
      </>
    );
  }

  return (
    <div className="ap-stack">
      <PageHeader
        title={a.title}
        description={a.description}
        actions={
          <Button variant="primary" onClick={() => setEditing('new')}>
            <Plus aria-hidden size={16} /> {a.create}
          </Button>
        }
      />
      <RepliesSettings appId={applicationId} />
      <div className="ap-actions">
        <form
          className="ap-logs-search"
          role="search"
          noValidate
          onSubmit={searchForm.handleSubmit((v) => {
            setSearch(v.q.trim());
            setPage(1);
          })}
        >
          <Field label={a.search} type="search" {...searchForm.register('q')} />
        </form>
        <Button onClick={() => exportAs('csv')}>{a.exportCsv}</Button>
        <Button onClick={() => exportAs('jsonl')}>{a.exportJsonl}</Button>
      </div>
      {exportError ? <ErrorText error={exportError} /> : null}
      {body}
      {adding ? <ToDatasetDialog appId={applicationId} source={{ annotationId: adding.id! }} onClose={() => setAdding(null)} /> : null}
      {editing ? <AnnotationDialog appId={applicationId} annotation={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={a.removeTitle}
        description={a.removeBody}
        confirmLabel={a.removeConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.id!, { onSuccess: () => setRemoving(null) })}
      />
    </div>
  );
}

function RepliesSettings({ appId }: { appId: string }) {
  const settings = useAnnotationSettings(appId);
  if (settings.isPending) return <Loading />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  return <RepliesForm appId={appId} settings={settings.data} />;
}

function RepliesForm({ appId, settings }: { appId: string; settings: AnnotationSettings }) {
  const save = useSaveAnnotationSettings(appId);
  const form = useForm<{ repliesEnabled: boolean; threshold: string }>({ defaultValues: { repliesEnabled: settings.repliesEnabled ?? false, threshold: String(settings.threshold ?? 0.9) } });
  const submit = form.handleSubmit((v) => save.mutate({ repliesEnabled: v.repliesEnabled, threshold: Number(v.threshold) }, { onSuccess: (saved) => form.reset({ repliesEnabled: saved.repliesEnabled ?? false, threshold: String(saved.threshold ?? 0.9) }) }));
  return (
    <form className="ap-card ap-stack" noValidate onSubmit={submit} aria-label={a.replies}>
      <h2 className="ap-logs-title">{a.replies}</h2>
      <label className="ap-logs-check">
        <input type="checkbox" {...form.register('repliesEnabled')} />
        <span>{a.repliesOn}</span>
      </label>
      <Field label={a.threshold} hint={a.thresholdHint} type="number" min={0.5} max={1} step={0.01} {...form.register('threshold')} />
      <ErrorText error={save.error} />
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {a.saveSettings}
        </Button>
        {save.isSuccess && !form.formState.isDirty ? (
          <span className="ap-muted" role="status">
            {a.saved}
          </span>
        ) : null}
      </div>
    </form>
  );
}

function AnnotationDialog({ appId, annotation, onClose }: { appId: string; annotation: Annotation | null; onClose: () => void }) {
  const save = useSaveAnnotation(appId);
  const form = useForm<{ question: string; answer: string }>({ defaultValues: { question: annotation?.question ?? '', answer: annotation?.answer ?? '' } });
  const submit = form.handleSubmit((v) => save.mutate({ ...(annotation ? { id: annotation.id } : {}), body: { question: v.question, answer: v.answer } }, { onSuccess: onClose }));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={annotation ? a.editTitle : a.createTitle}>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <TextArea label={a.question} rows={2} {...form.register('question')} />
        <TextArea label={a.answer} rows={6} {...form.register('answer')} />
        <ErrorText error={save.error} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {a.save}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

