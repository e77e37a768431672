import { CheckCircle2, Trash2, XCircle } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field, TextArea } from '../../components/Field';
import { teamsQuery } from '../../lib/teams';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { useConnections, useCreateConnection, useDeleteConnection, useRediscoverModels, useTestConnection, type Connection, type ConnectionKind } from './connections-queries';
import { s as strings } from './strings';

const s = strings.connections;
const KINDS: ConnectionKind[] = ['openai_compatible', 'anthropic_compatible', 'hugging_face_compatible'];
/** The team roles the API lets add, change, test and delete a team's connections. */
const MANAGING_ROLES: readonly string[] = ['owner', 'admin'];

/** `Name: value` lines into headers; null when a line is not of that form. */
function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf(':');
    if (at <= 0) return null;
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return headers;
}

interface FormValues {
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  apiKey: string;
  headers: string;
}

/**
 * The Connections section of the provider keys page (docs/connections.md): yours, or (when you belong to
 * teams) a team's, chosen under "Whose connections"; add, test, find models again, delete. A team's are
 * read-only to the roles the API refuses changes to (your role in the team, from the teams list).
 */
export function Connections() {
  const teams = useQuery(teamsQuery);
  const [whose, setWhose] = useState('');
  const team = whose ? teams.data?.find((candidate) => candidate.id === whose) : undefined;
  const teamId = team?.id ?? null;
  const readOnly = team && !MANAGING_ROLES.includes(team.role) ? s.readOnly(s.roles[team.role] ?? team.role, team.name) : null;
  const list = useConnections(teamId);
  const blockedId = useId();

  return (
    <section className="ap-card ap-stack" aria-labelledby="connections-heading">
      <div>
        <h2 id="connections-heading">{s.title}</h2>
        <p className="ap-muted">{s.description}</p>
      </div>
      {teams.data?.length ? (
        <div className="ap-field">
          <label htmlFor={`${blockedId}-whose`}>{s.whose}</label>
          <select id={`${blockedId}-whose`} className="ap-select" aria-describedby={`${blockedId}-whose-hint`} value={teamId ?? ''} onChange={(e) => setWhose(e.target.value)}>
            <option value="">{s.yours}</option>
            {teams.data.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
          <span className="ap-muted" id={`${blockedId}-whose-hint`}>
            {s.whoseHint}
          </span>
        </div>
      ) : null}
      {readOnly ? (
        <p className="ap-muted" id={blockedId}>
          {readOnly}
        </p>
      ) : null}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="ap-muted">{team ? s.teamNone(team.name) : s.none}</p>
      ) : (
        <ul className="ap-stack" aria-label={s.title}>
          {list.data.map((c) => (
            <ConnectionItem key={c.id} connection={c} blockedBy={readOnly ? blockedId : null} />
          ))}
        </ul>
      )}
      {readOnly ? null : <AddConnection key={teamId ?? ''} teamId={teamId} />}
    </section>
  );
}

/** The add form, for your own connections or (`teamId`) the team's. */
function AddConnection({ teamId }: { teamId: string | null }) {
  const create = useCreateConnection();
  const form = useForm<FormValues>({ defaultValues: { name: '', kind: 'openai_compatible', baseUrl: '', apiKey: '', headers: '' } });
  const submit = form.handleSubmit((values) => {
    const headers = parseHeaders(values.headers);
    if (!headers) {
      form.setError('headers', { message: s.headersInvalid });
      return;
    }
    create.mutate(
      {
        ...(teamId ? { teamId } : {}),
        name: values.name.trim(),
        kind: values.kind,
        baseUrl: values.baseUrl.trim(),
        ...(values.apiKey.trim() ? { apiKey: values.apiKey.trim() } : {}),
        ...(Object.keys(headers).length ? { headers } : {}),
      },
      {
        onSuccess: () => form.reset(),
        onError: (error) => {
          const messages = fieldErrors(error, ['name', 'baseUrl', 'apiKey', 'headers'] as const);
          for (const field of ['name', 'baseUrl', 'apiKey', 'headers'] as const) if (messages[field]) form.setError(field, { message: messages[field] });
        },
      },
    );
  });
  const shownError = create.error && !Object.values(fieldErrors(create.error, ['name', 'baseUrl', 'apiKey', 'headers'] as const)).some(Boolean) ? create.error : null;

  return (
    <form className="ap-stack" noValidate onSubmit={submit} aria-label={s.add}>
      <h3>{s.add}</h3>
      <Field label={s.name} autoComplete="off" spellCheck={false} hint={s.nameHint} error={form.formState.errors.name?.message} {...form.register('name', { required: s.nameRequired })} />
      <label className="ap-field">
        <span>{s.kind}</span>
        <select {...form.register('kind')}>
          {KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {s.kinds[kind]}
            </option>
          ))}
        </select>
      </label>
      <Field label={s.baseUrl} type="url" autoComplete="off" spellCheck={false} hint={s.baseUrlHint} error={form.formState.errors.baseUrl?.message} {...form.register('baseUrl', { required: s.baseUrlRequired })} />
      <Field label={s.apiKey} type="password" autoComplete="off" spellCheck={false} hint={s.apiKeyHint} error={form.formState.errors.apiKey?.message} {...form.register('apiKey')} />
      <TextArea label={s.headers} rows={2} spellCheck={false} hint={s.headersHint} error={form.formState.errors.headers?.message} {...form.register('headers')} />
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={create.isPending}>
          {create.isPending ? s.adding : s.add}
        </Button>
      </div>
      {create.isSuccess ? (
        <p className="ap-muted" role="status">
          {s.added(create.data.name)}
        </p>
      ) : null}
      <ErrorText error={shownError} />
    </form>
  );
}

/** One connection; `blockedBy` names the sentence saying why its actions are disabled (a team role that may not change it). */
function ConnectionItem({ connection: c, blockedBy }: { connection: Connection; blockedBy: string | null }) {
  const test = useTestConnection(c.id);
  const rediscover = useRediscoverModels(c.id);
  const remove = useDeleteConnection(c.id);
  const [confirming, setConfirming] = useState(false);
  const verdict = test.data;
  return (
    <li className="ap-stack" aria-label={c.name}>
      <div className="ap-page-header">
        <div>
          <h3>{c.name}</h3>
          <p className="ap-muted">
            {s.kinds[c.kind]} · {c.baseUrl} · {c.hasKey && c.keyHint ? s.keyEnding(c.keyHint.replace(/^…/, '')) : s.noKey}
            {c.headerNames.length ? ` · ${s.headerNames(c.headerNames.join(', '))}` : ''} · {s.models(c.models.length)}
          </p>
        </div>
        <div className="ap-actions">
          <Button busy={test.isPending} disabled={!!blockedBy} aria-describedby={blockedBy ?? undefined} aria-label={s.testLabel(c.name)} onClick={() => test.mutate()}>
            {test.isPending ? s.testing : s.test}
          </Button>
          <Button busy={rediscover.isPending} disabled={!!blockedBy} aria-describedby={blockedBy ?? undefined} aria-label={s.rediscoverLabel(c.name)} onClick={() => rediscover.mutate()}>
            {s.rediscover}
          </Button>
          <Button variant="ghost" disabled={!!blockedBy} aria-describedby={blockedBy ?? undefined} aria-label={s.deleteLabel(c.name)} onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden size={16} />
          </Button>
        </div>
      </div>
      {verdict ? (
        <p className={verdict.ok ? 'ap-verdict ap-verdict--ok' : 'ap-verdict ap-verdict--bad'} role="status">
          {verdict.ok ? <CheckCircle2 aria-hidden size={16} /> : <XCircle aria-hidden size={16} />}
          {verdict.ok ? s.testOk(verdict.modelCount) : s.testBad(verdict.error ?? '')}
        </p>
      ) : null}
      {rediscover.isSuccess ? (
        <p className="ap-muted" role="status">
          {s.rediscovered(rediscover.data.models.length)}
        </p>
      ) : null}
      <ErrorText error={test.error ?? rediscover.error} />
      {c.models.length ? (
        <ul aria-label={s.modelsLabel(c.name)}>
          {c.models.slice(0, 50).map((m) => (
            <li key={m}>
              <code>{m}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="ap-muted">{s.noModels}</p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={s.deleteTitle(c.name)}
        description={s.deleteBody}
        confirmLabel={s.delete}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => setConfirming(false) })}
      />
    </li>
  );
}
