import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { CodeEditor } from '../../components/CodeEditor';
import { Dialog } from '../../components/Dialog';
import { Field, TextArea } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { useSaveTool, type Tool, type ToolParameters } from './queries';
import { draftOf, kindOf, SOURCE_KINDS, sourceOf, type SourceDraft, type SourceKind } from './sources';
import { s } from './strings';

const EXAMPLE_SCHEMA = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, null, 2);

/** The form's fields, and the API's `details[].path` each one shows (the part below it kept in the text). */
const FIELDS = {
  name: 'name',
  description: 'description',
  parameters: 'parameters',
  url: 'source.url',
  method: 'source.method',
  headers: 'source.headers',
  allowedHosts: 'source.allowedHosts',
  workflowId: 'source.workflowId',
  source: 'source',
  timeoutMs: 'timeoutMs',
  secrets: 'secrets',
} as const;
type FormField = keyof typeof FIELDS;

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`) || path.startsWith(`${prefix}/`);

/** The API's 400 spread over the form: each detail on the most precise field it names; the rest said apart. */
function fieldErrors(error: unknown): { fields: Partial<Record<FormField, string>>; other: boolean } {
  const fields: Partial<Record<FormField, string>> = {};
  if (!(error instanceof ApiError)) return { fields, other: !!error };
  let other = !error.details.length;
  for (const detail of error.details) {
    const field = (Object.keys(FIELDS) as FormField[]).find((f) => under(detail.path, FIELDS[f]));
    if (!field) {
      other = true;
      continue;
    }
    const below = detail.path.slice(FIELDS[field].length).replace(/^[./]/, '');
    const text = below ? `${below}: ${detail.message}` : detail.message;
    fields[field] = fields[field] ? `${fields[field]} ${text}` : text;
  }
  return { fields, other };
}

/** Create or edit one tool: its JSON Schema in the code editor, its source, its write-only secrets. */
export function ToolDialog({ appId, tool, onClose }: { appId: string; tool: Tool | null; onClose(): void }) {
  const save = useSaveTool(appId);
  const [name, setName] = useState(tool?.name ?? '');
  const [description, setDescription] = useState(tool?.description ?? '');
  const [parameters, setParameters] = useState(tool?.parameters ? JSON.stringify(tool.parameters, null, 2) : EXAMPLE_SCHEMA);
  const [kind, setKind] = useState<SourceKind>(tool?.source ? kindOf(tool.source) : 'http');
  const [draft, setDraft] = useState<SourceDraft>(draftOf(tool?.source));
  const [timeoutMs, setTimeoutMs] = useState(String(tool?.timeoutMs ?? 10000));
  // Secrets: the names already set (values never come back), the new values typed, and those to remove.
  const [secretValues, setSecretValues] = useState<Record<string, string>>({});
  const [removed, setRemoved] = useState<string[]>([]);
  const [newSecret, setNewSecret] = useState({ name: '', value: '' });
  const [localError, setLocalError] = useState<string | undefined>();
  const set = (patch: Partial<SourceDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const { fields, other } = fieldErrors(save.error);
  const parametersError = localError ?? fields.parameters;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let schema: unknown;
    try {
      schema = JSON.parse(parameters);
    } catch (error) {
      setLocalError(s.notJson((error as Error).message));
      return;
    }
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
      setLocalError(s.notObject);
      return;
    }
    setLocalError(undefined);
    const secrets: Record<string, string | null> = {};
    for (const [key, value] of Object.entries(secretValues)) if (value) secrets[key] = value;
    for (const key of removed) secrets[key] = null;
    if (newSecret.name.trim()) secrets[newSecret.name.trim()] = newSecret.value;
    save.mutate(
      {
        id: tool?.id,
        body: { name: name.trim(), description, parameters: schema as ToolParameters, source: sourceOf(kind, draft), timeoutMs: Number(timeoutMs), ...(Object.keys(secrets).length ? { secrets } : {}) },
      },
      { onSuccess: onClose },
    );
  };

  const setNames = (tool?.secretNames ?? []).filter((n) => !removed.includes(n));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={tool ? s.editTitle(tool.name!) : s.createTitle}>
      <form className="ap-stack" onSubmit={submit} noValidate>
        {other ? <ErrorText error={save.error} /> : null}
        <Field label={s.name} hint={s.nameHint} value={name} onChange={(e) => setName(e.target.value)} error={fields.name} required />
        <TextArea label={s.toolDescription} hint={s.toolDescriptionHint} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} error={fields.description} required />
        <CodeEditor id="tool-parameters" label={s.parameters} hint={s.parametersHint} language="json" value={parameters} onChange={setParameters} error={parametersError} />
        <div className="ap-field">
          <label htmlFor="tool-kind">{s.sourceKind}</label>
          <select id="tool-kind" className="ap-select" value={kind} onChange={(e) => setKind(e.target.value as SourceKind)}>
            {SOURCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {s.kinds[k] ?? k}
              </option>
            ))}
          </select>
          {fields.source ? (
            <p className="ap-field__error" role="alert">
              {fields.source}
            </p>
          ) : null}
        </div>
        <SourceFields kind={kind} draft={draft} set={set} errors={fields} />
        <Field label={s.timeout} type="number" min={100} max={60000} value={timeoutMs} onChange={(e) => setTimeoutMs(e.target.value)} error={fields.timeoutMs} />
        {kind === 'http' ? (
          <fieldset className="ap-card ap-stack">
            <legend>{s.secrets}</legend>
            <p className="ap-field__hint">{s.secretsHint}</p>
            {setNames.map((secret) => (
              <div key={secret} className="ap-actions">
                <code>{secret}</code>
                <span className="ap-muted">{s.secretSet}</span>
                <Field label={s.secretValue(secret)} type="password" autoComplete="off" value={secretValues[secret] ?? ''} onChange={(e) => setSecretValues((v) => ({ ...v, [secret]: e.target.value }))} />
                <Button type="button" onClick={() => setRemoved((r) => [...r, secret])}>
                  {s.removeSecret(secret)}
                </Button>
              </div>
            ))}
            {removed.map((secret) => (
              <p key={secret} className="ap-muted">
                <code>{secret}</code> {s.secretNotSet}
              </p>
            ))}
            <div className="ap-actions">
              <Field label={s.newSecretName} value={newSecret.name} onChange={(e) => setNewSecret((n) => ({ ...n, name: e.target.value }))} />
              <Field label={s.newSecretValue} type="password" autoComplete="off" value={newSecret.value} onChange={(e) => setNewSecret((n) => ({ ...n, value: e.target.value }))} />
            </div>
            {fields.secrets ? (
              <p className="ap-field__error" role="alert">
                {fields.secrets}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <div className="ap-actions">
          <Button type="button" onClick={onClose}>
            {s.cancel}
          </Button>
          <Button type="submit" variant="primary" busy={save.isPending}>
            {s.save}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The fields of one source kind (one case per kind in SOURCE_KINDS). */
function SourceFields({ kind, draft, set, errors }: { kind: SourceKind; draft: SourceDraft; set(patch: Partial<SourceDraft>): void; errors: Partial<Record<FormField, string>> }) {
  switch (kind) {
    case 'http':
      return (
        <>
          <div className="ap-field">
            <label htmlFor="tool-method">{s.method}</label>
            <select id="tool-method" className="ap-select" value={draft.method} onChange={(e) => set({ method: e.target.value as SourceDraft['method'] })}>
              {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </div>
          <Field label={s.url} hint={s.urlHint} value={draft.url} onChange={(e) => set({ url: e.target.value })} error={errors.url} />
          <TextArea label={s.headers} hint={s.headersHint} rows={2} value={draft.headers} onChange={(e) => set({ headers: e.target.value })} error={errors.headers} />
          <TextArea label={s.allowedHosts} hint={s.allowedHostsHint} rows={2} value={draft.allowedHosts} onChange={(e) => set({ allowedHosts: e.target.value })} error={errors.allowedHosts} />
        </>
      );
    case 'run_workflow':
      return <Field label={s.workflowId} value={draft.workflowId} onChange={(e) => set({ workflowId: e.target.value })} error={errors.workflowId} />;
    case 'search_knowledge':
      return null;
  }
}
