import { Pencil, Plus, Star, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { Editor } from './Editor';
import { useDeleteTemplate, useMakeDefault, useTemplates, type PromptTemplate } from './queries';
import { s } from './strings';

/** An application's prompt templates: list, editor with variables and preview, default, delete. */
export default function Prompts() {
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <ApplicationScope id="pt-app" emptyBody={s.noApplicationsBody}>
        {(chosen) => <Templates key={chosen} chosen={chosen} />}
      </ApplicationScope>
    </>
  );
}

/** The chosen application's templates and the editor (closed when another application is chosen). */
function Templates({ chosen }: { chosen: string }) {
  const list = useTemplates(chosen);
  const makeDefault = useMakeDefault();
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<PromptTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<PromptTemplate | null>(null);

  const createButton = (
    <Button variant="primary" onClick={() => setEditing('new')}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Button>
  );

  let templates;
  if (list.isPending) templates = <Loading />;
  else if (list.isError) templates = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) templates = editing ? null : <EmptyState title={s.empty} action={createButton}>{s.emptyBody}</EmptyState>;
  else
    templates = (
      <>
        {editing ? null : <div className="ap-actions">{createButton}</div>}
        <ErrorText error={makeDefault.error} />
        <DataTable
          rows={list.data}
          rowKey={(tpl) => tpl.id!}
          columns={[
            {
              header: s.columns.name,
              rowHeader: true,
              cell: (tpl) => (
                <>
                  <span className="ap-strong">{tpl.name}</span>
                  {tpl.isDefault ? <span className="ap-pt-badge">{s.isDefault}</span> : null}
                </>
              ),
            },
            { header: s.columns.variables, cell: (tpl) => (tpl.variables?.length ? tpl.variables.join(', ') : s.none) },
          ]}
          actionsLabel={s.columns.actions}
          actions={(tpl) => (
            <>
              {!tpl.isDefault ? (
                <Button variant="ghost" aria-label={s.makeDefaultLabel(tpl.name ?? '')} onClick={() => makeDefault.mutate(tpl.id!)}>
                  <Star aria-hidden size={16} />
                </Button>
              ) : null}
              <Button variant="ghost" aria-label={s.editLabel(tpl.name ?? '')} onClick={() => setEditing(tpl)}>
                <Pencil aria-hidden size={16} />
              </Button>
              <Button variant="ghost" aria-label={s.deleteLabel(tpl.name ?? '')} onClick={() => setDeleting(tpl)}>
                <Trash2 aria-hidden size={16} />
              </Button>
            </>
          )}
        />
      </>
    );

  return (
    <>
      {editing ? <Editor key={editing === 'new' ? 'new' : editing.id} applicationId={chosen} template={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} /> : null}
      {templates}
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
