import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { t } from '../../lib/strings';
import { useCreateTeam, useTeams } from './queries';
import { s } from './strings';

type Values = { name: string; slug: string; description: string };
const FIELDS = ['name', 'slug', 'description'] as const;

function CreateTeamDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateTeam();
  const navigate = useNavigate();
  const form = useForm<Values>({ defaultValues: { name: '', slug: '', description: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((v) =>
    create.mutate(
      { name: v.name.trim(), ...(v.slug.trim() ? { slug: v.slug.trim() } : {}), ...(v.description.trim() ? { description: v.description.trim() } : {}) },
      {
        onSuccess: (team) => {
          onOpenChange(false);
          form.reset();
          navigate(`/teams/${team.id}`);
        },
        onError: (error) => {
          for (const [field, message] of Object.entries(fieldErrors(error, FIELDS))) form.setError(field as keyof Values, { message: message as string });
        },
      },
    ),
  );
  const named = create.error ? Object.keys(fieldErrors(create.error, FIELDS)).length > 0 : false;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={s.createTitle}>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <Field label={s.name} error={errors.name?.message} {...form.register('name', { required: `${s.name} is required` })} />
        <Field label={s.slug} hint={s.slugHint} error={errors.slug?.message} {...form.register('slug')} />
        <Field label={s.descriptionField} error={errors.description?.message} {...form.register('description')} />
        {create.error && !named ? <ErrorText error={create.error} /> : null}
        <div className="ap-actions">
          <Button onClick={() => onOpenChange(false)}>{t.cancel}</Button>
          <Button type="submit" variant="primary" busy={create.isPending}>
            {s.create}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The teams you belong to, with your role in each; create one. */
export default function Teams() {
  const teams = useTeams();
  const [creating, setCreating] = useState(false);
  const createButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Button>
  );
  let body;
  if (teams.isPending) body = <Loading />;
  else if (teams.isError) body = <ErrorState error={teams.error} onRetry={() => void teams.refetch()} />;
  else if (!teams.data.length) body = <EmptyState title={s.empty} action={createButton}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <DataTable
        rows={teams.data}
        rowKey={(team) => team.id}
        columns={[
          {
            header: s.name,
            rowHeader: true,
            cell: (team) => (
              <>
                <Link to={`/teams/${team.id}`}>{team.name}</Link>
                {team.description ? <div className="ap-muted">{team.description}</div> : null}
              </>
            ),
          },
          { header: s.slug, cell: (team) => <code>{team.slug}</code> },
          { header: s.yourRole, cell: (team) => s.roles[team.role] },
        ]}
      />
    );
  return (
    <>
      <PageHeader title={s.title} description={s.description} actions={teams.data?.length ? createButton : undefined} />
      {body}
      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
