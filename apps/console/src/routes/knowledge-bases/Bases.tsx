import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDate } from '../../lib/format';
import { useBases, useCreateBase, useDeleteBase, type KnowledgeBase } from '../../components/knowledge/queries';
import { s as strings } from '../../components/knowledge/strings';
import { useQuery } from '@tanstack/react-query';
import { teamsQuery } from '../../lib/teams';

const s = strings.bases;

/** A new knowledge base: its name, what it holds, and whether it is the user's or one of their teams'. */
function CreateBase() {
  const create = useCreateBase();
  const teams = useQuery(teamsQuery);
  const [done, setDone] = useState('');
  const form = useForm<{ name: string; description: string; teamId: string }>({ defaultValues: { name: '', description: '', teamId: '' } });
  const submit = form.handleSubmit((values) =>
    create.mutate(
      { name: values.name.trim(), description: values.description.trim(), teamId: values.teamId || null },
      {
        onSuccess: (base) => {
          setDone(s.created(base.name ?? ''));
          form.reset();
        },
      },
    ),
  );
  return (
    <section className="ap-card ap-stack" aria-labelledby="kb-create">
      <h2 id="kb-create">{s.createTitle}</h2>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <Field label={s.name} maxLength={100} error={form.formState.errors.name?.message} {...form.register('name', { validate: (v) => (v.trim() ? true : s.nameRequired) })} />
        <Field label={s.descriptionLabel} maxLength={1000} {...form.register('description')} />
        {teams.data?.length ? (
          <div className="ap-field">
            <label htmlFor="kb-owner">{s.owner}</label>
            <select id="kb-owner" className="ap-select" {...form.register('teamId')}>
              <option value="">{s.personal}</option>
              {teams.data.map((team) => (
                <option key={team.id} value={team.id}>
                  {s.team(team.name ?? '')}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div>
          <Button type="submit" variant="primary" busy={create.isPending}>
            {s.create}
          </Button>
        </div>
        {done ? <p role="status">{done}</p> : null}
        <ErrorText error={create.error} />
      </form>
    </section>
  );
}

/** The workspace's knowledge bases: the user's own and their teams', each opened to its documents. */
export default function Bases() {
  const list = useBases();
  const teams = useQuery(teamsQuery);
  const remove = useDeleteBase();
  const [deleting, setDeleting] = useState<KnowledgeBase | null>(null);
  const teamName = (id: string | null | undefined) => (id ? s.team(teams.data?.find((t) => t.id === id)?.name ?? '') : s.personal);

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) body = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <DataTable
        rows={list.data}
        rowKey={(base) => base.id!}
        aria-label={s.title}
        columns={[
          {
            header: s.columns.name,
            rowHeader: true,
            cell: (base) => (
              <>
                <Link to={`/knowledge-bases/${base.id}`} aria-label={s.open(base.name ?? '')}>
                  {base.name}
                </Link>
                {base.description ? <span className="ap-muted ap-block">{base.description}</span> : null}
              </>
            ),
          },
          { header: s.columns.owner, cell: (base) => teamName(base.teamId) },
          { header: s.columns.documents, cell: (base) => s.documents(base.documentCount ?? 0) },
          { header: s.columns.created, cell: (base) => (base.createdAt ? formatDate(base.createdAt) : '—') },
        ]}
        actionsLabel={s.columns.actions}
        actions={(base) => (
          <Button variant="ghost" aria-label={s.deleteLabel(base.name ?? '')} onClick={() => setDeleting(base)}>
            <Trash2 aria-hidden size={16} />
          </Button>
        )}
      />
    );

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <CreateBase />
      {body}
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
