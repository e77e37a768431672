import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorText } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { CodeEditor } from '../../components/CodeEditor';
import { manifestErrors, type FormField } from './errors';
import { useCreatePlugin, type Manifest } from './queries';
import { s } from './strings';

const STARTER = `definePlugin({
  hooks: {
    'message:beforeSend': (message) => message,
  },
});
`;

const list = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A new plugin: the manifest's fields and the source in a code editor, or a ZIP package; the API's 400 on its field. */
export function CreatePlugin() {
  const navigate = useNavigate();
  const create = useCreatePlugin();
  const [mode, setMode] = useState<'editor' | 'zip'>('editor');
  const [form, setForm] = useState({ name: '', displayName: '', version: '1.0.0', description: '', main: 'index.js', hosts: '', events: '', settings: '{}' });
  const [source, setSource] = useState(STARTER);
  const [zip, setZip] = useState<File | null>(null);
  const [local, setLocal] = useState<Partial<Record<FormField, string>>>({});
  const server = manifestErrors(create.error);
  const errors = { ...server.fields, ...local };
  // A ZIP has no fields on screen: every detail is listed with the manifest path it names.
  const refused = mode === 'zip' && create.error instanceof ApiError ? (create.error.details.length ? create.error.details.map((d) => `${d.path}: ${d.message}`) : [create.error.message]) : server.other;
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    if (mode === 'zip') {
      if (zip) create.mutate({ zip }, { onSuccess: (plugin) => navigate(`/plugins/${plugin.id}`) });
      return;
    }
    let settings: unknown;
    try {
      settings = JSON.parse(form.settings || '{}');
    } catch {
      setLocal({ settings: s.settingsNotJson });
      return;
    }
    setLocal({});
    const manifest = {
      name: form.name.trim(),
      version: form.version.trim(),
      main: form.main.trim(),
      ...(form.displayName.trim() ? { displayName: form.displayName.trim() } : {}),
      ...(form.description.trim() ? { description: form.description.trim() } : {}),
      permissions: { hosts: list(form.hosts), events: list(form.events) },
      settings,
    } as Manifest;
    create.mutate({ json: { manifest, source } }, { onSuccess: (plugin) => navigate(`/plugins/${plugin.id}`) });
  }

  return (
    <>
      <PageHeader title={s.createTitle} description={s.createDescription} />
      <div className="ap-actions" role="radiogroup" aria-label={s.createTitle}>
        <label className="ap-pl-choice">
          <input type="radio" name="pl-mode" checked={mode === 'editor'} onChange={() => setMode('editor')} /> {s.fromEditor}
        </label>
        <label className="ap-pl-choice">
          <input type="radio" name="pl-mode" checked={mode === 'zip'} onChange={() => setMode('zip')} /> {s.fromZip}
        </label>
      </div>
      <form className="ap-stack" onSubmit={submit} noValidate>
        {mode === 'editor' ? (
          <>
            <fieldset className="ap-card ap-stack">
              <legend>{s.manifest}</legend>
              <div className="ap-pl-grid">
                <Field label={s.name} hint={s.nameHint} value={form.name} onChange={set('name')} error={errors.name} required autoComplete="off" />
                <Field label={s.displayName} value={form.displayName} onChange={set('displayName')} error={errors.displayName} autoComplete="off" />
                <Field label={s.version} hint={s.versionHint} value={form.version} onChange={set('version')} error={errors.version} required autoComplete="off" />
                <Field label={s.main} value={form.main} onChange={set('main')} error={errors.main} required autoComplete="off" />
              </div>
              <Field label={s.pluginDescription} value={form.description} onChange={set('description')} error={errors.description} autoComplete="off" />
              <Field label={s.hosts} hint={s.hostsHint} value={form.hosts} onChange={set('hosts')} error={errors.hosts} autoComplete="off" />
              <Field label={s.events} hint={s.eventsHint} value={form.events} onChange={set('events')} error={errors.events} autoComplete="off" />
              <TextArea className="ap-code-input" label={s.settingsSchema} hint={s.settingsHint} rows={4} value={form.settings} onChange={set('settings')} error={errors.settings} spellCheck={false} />
            </fieldset>
            <CodeEditor id="pl-source" label={s.source} hint={s.sourceHint} language="javascript" value={source} onChange={setSource} error={errors.source} />
          </>
        ) : (
          <div className="ap-field">
            <label htmlFor="pl-zip">{s.zip}</label>
            <input id="pl-zip" type="file" accept=".zip,application/zip" aria-describedby="pl-zip-hint" onChange={(e) => setZip(e.target.files?.[0] ?? null)} />
            <p className="ap-field__hint" id="pl-zip-hint">
              {s.zipHint}
            </p>
          </div>
        )}
        {refused.length ? (
          <div className="ap-field__error" role="alert">
            <p>{s.otherErrors}</p>
            <ul>
              {refused.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <ErrorText error={create.error instanceof ApiError ? null : create.error} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={create.isPending} disabled={mode === 'zip' && !zip}>
            {mode === 'zip' ? s.upload : s.save}
          </Button>
          <Link className="ap-button ap-button--ghost" to="/plugins">
            {s.cancel}
          </Link>
        </div>
      </form>
    </>
  );
}
