import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { t } from '../../lib/strings';
import { EventsField } from './EventsField';
import { useCreateWebhook, useWebhooks, type WebhookEvent } from './queries';
import { SecretDialog } from './SecretDialog';
import { s } from './strings';

type Values = { url: string; description: string; applicationId: string; events: WebhookEvent[] };
const FIELDS = ['url', 'description', 'applicationId', 'events'] as const;

function CreateDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: (secret: string) => void }) {
  const apps = useApplicationChoices();
  const create = useCreateWebhook();
  const form = useForm<Values>({ defaultValues: { url: '', description: '', applicationId: '', events: ['message.completed'] } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((v) =>
    create.mutate(
      { url: v.url.trim(), events: v.events, applicationId: v.applicationId || null, ...(v.description.trim() ? { description: v.description.trim() } : {}) },
      {
        onSuccess: (hook) => {
          form.reset();
          onOpenChange(false);
          onCreated(hook.secret ?? '');
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
        <Field label={s.url} type="url" hint={s.urlHint} error={errors.url?.message} {...form.register('url', { required: `${s.url} is required` })} />
        <Field label={s.descriptionField} error={errors.description?.message} {...form.register('description')} />
        <div className="ap-field">
          <label htmlFor="webhook-app">{s.application}</label>
          <select id="webhook-app" className="ap-select" {...form.register('applicationId')}>
            <option value="">{s.allApplications}</option>
            {apps.data?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <EventsField register={form.register('events', { validate: (v) => (Array.isArray(v) && v.length > 0) || s.eventsRequired })} error={errors.events?.message} />
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

/** The webhooks (of the chosen personal/team context): add one (its secret shown once), open one. */
export default function Webhooks() {
  const hooks = useWebhooks();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const createButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <Plus aria-hidden size={16} />
      {s.create}
    </Button>
  );
  let body;
  if (hooks.isPending) body = <Loading />;
  else if (hooks.isError) body = <ErrorState error={hooks.error} onRetry={() => void hooks.refetch()} />;
  else if (!hooks.data.length) body = <EmptyState title={s.empty} action={createButton}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <DataTable
        rows={hooks.data}
        rowKey={(h) => h.id!}
        columns={[
          {
            header: s.columns.url,
            rowHeader: true,
            className: 'ap-webhooks-url',
            cell: (h) => (
              <>
                <Link to={`/webhooks/${h.id}`} aria-label={s.open(h.url ?? '')}>
                  {h.url}
                </Link>
                {h.description ? <div className="ap-muted">{h.description}</div> : null}
              </>
            ),
          },
          { header: s.columns.events, cell: (h) => h.events?.join(', ') },
          { header: s.columns.status, cell: (h) => (h.enabled ? s.enabled : s.disabled) },
          { header: s.columns.deliveries, cell: (h) => s.deliveries(h.totalDeliveries ?? 0, h.failedDeliveries ?? 0) },
          { header: s.columns.last, cell: (h) => (h.lastDeliveryAt ? formatDateTime(h.lastDeliveryAt) : s.never) },
        ]}
      />
    );
  return (
    <>
      <PageHeader title={s.title} description={s.description} actions={hooks.data?.length ? createButton : undefined} />
      {body}
      <CreateDialog open={creating} onOpenChange={setCreating} onCreated={setSecret} />
      <SecretDialog title={s.createdTitle} secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
