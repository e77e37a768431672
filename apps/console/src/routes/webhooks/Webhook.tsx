import { KeyRound, RotateCw, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { teamsQuery } from '../../lib/teams';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { EventsField } from './EventsField';
import {
  live,
  newestAttempts,
  useDeleteWebhook,
  useDeliveries,
  useRetryDelivery,
  useRotateSecret,
  useTestPing,
  useUpdateWebhook,
  useWebhook,
  type Webhook as WebhookView,
  type WebhookEvent,
} from './queries';
import { SecretDialog } from './SecretDialog';
import { s } from './strings';

type Values = { url: string; description: string; events: WebhookEvent[]; enabled: boolean };
const FIELDS = ['url', 'description', 'events'] as const;
const EXPECT_MS = 20_000;

/**
 * Whether your role lets you manage the webhook: one scoped to a team's application needs Admin or Owner there
 * (the API decides in the end; unknown applications are left to it).
 */
function useManageReason(hook: WebhookView | undefined): string | null {
  const apps = useApplicationChoices();
  const teams = useQuery(teamsQuery);
  const teamId = hook?.applicationId ? apps.data?.find((a) => a.id === hook.applicationId)?.teamId : null;
  const role = teamId ? teams.data?.find((t) => t.id === teamId)?.role : undefined;
  return role === 'member' || role === 'viewer' ? s.whyRole(role) : null;
}

function SettingsForm({ hook, reason }: { hook: WebhookView; reason: string | null }) {
  const update = useUpdateWebhook(hook.id!);
  const form = useForm<Values>({ values: { url: hook.url ?? '', description: hook.description ?? '', events: hook.events ?? [], enabled: !!hook.enabled } });
  const { errors } = form.formState;
  const submit = form.handleSubmit((v) =>
    update.mutate(
      { url: v.url.trim(), description: v.description.trim(), events: v.events, enabled: v.enabled },
      {
        onError: (error) => {
          for (const [field, message] of Object.entries(fieldErrors(error, FIELDS))) form.setError(field as keyof Values, { message: message as string });
        },
      },
    ),
  );
  return (
    <section className="ap-card ap-stack" aria-labelledby="webhook-settings">
      <h2 id="webhook-settings">{s.settings}</h2>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <fieldset className="ap-webhooks-fieldset ap-stack" disabled={!!reason}>
          <Field label={s.url} type="url" error={errors.url?.message} {...form.register('url', { required: `${s.url} is required` })} />
          <Field label={s.descriptionField} error={errors.description?.message} {...form.register('description')} />
          <EventsField register={form.register('events', { validate: (v) => (Array.isArray(v) && v.length > 0) || s.eventsRequired })} error={errors.events?.message} />
          <label className="ap-webhooks-check">
            <input type="checkbox" {...form.register('enabled')} />
            <span>{s.enabledField}</span>
          </label>
        </fieldset>
        {update.error && !Object.keys(fieldErrors(update.error, FIELDS)).length ? <ErrorText error={update.error} /> : null}
        {update.isSuccess && !form.formState.isDirty ? (
          <p className="ap-notice" role="status">
            {s.saved}
          </p>
        ) : null}
        <div className="ap-actions">
          <Button type="submit" variant="primary" disabled={!!reason} busy={update.isPending} aria-describedby={reason ? 'webhook-reason' : undefined}>
            {s.save}
          </Button>
        </div>
      </form>
    </section>
  );
}

function DeliveryLog({ hookId, expectUntil, onRetried }: { hookId: string; expectUntil: number; onRetried: () => void }) {
  const log = useDeliveries(hookId, expectUntil);
  const retry = useRetryDelivery(hookId);
  const [notice, setNotice] = useState('');
  let body;
  if (log.isPending) body = <Loading />;
  else if (log.isError) body = <ErrorState error={log.error} onRetry={() => void log.refetch()} />;
  else if (!log.data.length) body = <EmptyState title={s.logEmpty}>{s.logEmptyBody}</EmptyState>;
  else {
    const newest = newestAttempts(log.data);
    const retriable = (a: (typeof log.data)[number]) => newest.has(a.id!) && (a.deliveryStatus === 'failed' || (a.deliveryStatus === 'pending' && !!a.nextRetryAt));
    body = (
      <DataTable
        rows={log.data}
        rowKey={(a) => a.id!}
        columns={[
          { header: s.logColumns.at, rowHeader: true, cell: (a) => (a.createdAt ? formatDateTime(a.createdAt) : '') },
          { header: s.logColumns.event, cell: (a) => <code>{a.eventType}</code> },
          { header: s.logColumns.attempt, cell: (a) => a.attempt },
          { header: s.logColumns.outcome, cell: (a) => s.outcomes[a.outcome ?? ''] ?? a.outcome },
          { header: s.logColumns.status, cell: (a) => a.statusCode ?? '—' },
          { header: s.logColumns.duration, cell: (a) => s.ms(a.durationMs ?? 0) },
          { header: s.logColumns.error, className: 'ap-webhooks-error', cell: (a) => a.error ?? '' },
          {
            header: s.logColumns.delivery,
            cell: (a) => (
              <>
                {newest.has(a.id!) ? (s.deliveryStatus[a.deliveryStatus ?? ''] ?? a.deliveryStatus) : ''}
                {newest.has(a.id!) && a.deliveryStatus === 'pending' && a.nextRetryAt ? <div className="ap-muted">{`${s.logColumns.next}: ${formatDateTime(a.nextRetryAt)}`}</div> : null}
              </>
            ),
          },
        ]}
        actions={(a) =>
          retriable(a) ? (
            <Button
              aria-label={s.retryLabel(a.eventType ?? '', a.attempt ?? 0)}
              busy={retry.isPending && retry.variables === a.deliveryId}
              onClick={() =>
                retry.mutate(a.deliveryId!, {
                  onSuccess: () => {
                    setNotice(s.retryQueued);
                    onRetried();
                  },
                })
              }
            >
              <RotateCw aria-hidden size={16} />
              {s.retry}
            </Button>
          ) : null
        }
      />
    );
  }
  return (
    <section className="ap-card ap-stack" aria-labelledby="webhook-log">
      <h2 id="webhook-log">{s.log}</h2>
      <p className="ap-muted">
        {s.logBody} {live(log.data) ? s.live : ''}
      </p>
      <ErrorText error={retry.error} />
      {notice ? (
        <p className="ap-notice" role="status">
          {notice}
        </p>
      ) : null}
      {body}
    </section>
  );
}

/** One webhook: its settings and events, test ping, secret rotation, the delivery log with retries, delete. */
export default function Webhook() {
  const { webhookId = '' } = useParams();
  const found = useWebhook(webhookId);
  const navigate = useNavigate();
  const ping = useTestPing(webhookId);
  const rotate = useRotateSecret(webhookId);
  const remove = useDeleteWebhook(webhookId);
  const [expectUntil, setExpectUntil] = useState(0);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const reason = useManageReason(found.data ?? undefined);
  const back = (
    <Link className="ap-button ap-button--secondary" to="/webhooks">
      {s.back}
    </Link>
  );
  if (found.isPending) return <Loading />;
  if (found.isError) return <ErrorState error={found.error} onRetry={() => void found.refetch()} />;
  const hook = found.data;
  if (!hook)
    return (
      <>
        <PageHeader title={s.title} actions={back} />
        <EmptyState title={s.notFound} />
      </>
    );
  const expect = () => setExpectUntil(Date.now() + EXPECT_MS);
  return (
    <>
      <PageHeader
        title={hook.description || s.title}
        description={hook.url}
        actions={
          <>
            {back}
            <Button variant="primary" disabled={!!reason} aria-describedby={reason ? 'webhook-reason' : undefined} busy={ping.isPending} onClick={() => ping.mutate(undefined, { onSuccess: expect })}>
              <Send aria-hidden size={16} />
              {s.test}
            </Button>
            <Button disabled={!!reason} aria-describedby={reason ? 'webhook-reason' : undefined} onClick={() => setRotating(true)}>
              <KeyRound aria-hidden size={16} />
              {s.rotate}
            </Button>
            <Button variant="danger" disabled={!!reason} aria-describedby={reason ? 'webhook-reason' : undefined} onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden size={16} />
              {s.delete}
            </Button>
          </>
        }
      />
      <div className="ap-stack">
        {reason ? (
          <p id="webhook-reason" className="ap-muted">
            {reason}
          </p>
        ) : null}
        <ErrorText error={ping.error} />
        {ping.isSuccess ? (
          <p className="ap-notice" role="status">
            {s.testQueued}
          </p>
        ) : null}
        {hook.disabledReason ? <p className="ap-error-text">{s.disabledReason(hook.disabledReason)}</p> : null}
        {hook.lastError ? <p className="ap-muted">{s.lastError(hook.lastError)}</p> : null}
        {reason ? null : <DeliveryLog hookId={webhookId} expectUntil={expectUntil} onRetried={expect} />}
        <SettingsForm hook={hook} reason={reason} />
      </div>
      <ConfirmDialog
        open={rotating}
        onOpenChange={setRotating}
        title={s.rotateTitle}
        description={s.rotateBody}
        confirmLabel={s.rotate}
        busy={rotate.isPending}
        error={rotate.error}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (answer) => {
              setRotating(false);
              setSecret((answer as { secret?: string }).secret ?? '');
            },
          })
        }
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={s.deleteTitle}
        description={s.deleteBody}
        confirmLabel={s.delete}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/webhooks') })}
      />
      <SecretDialog title={s.rotatedTitle} secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
