import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { ApiError } from '../../lib/errors';
import type { SettingSpec } from './queries';
import { s } from './strings';

type Draft = Record<string, string | boolean>;

const isSecretSet = (value: unknown) => !!value && typeof value === 'object' && (value as { set?: unknown }).set === true;

/** A field's starting text: the installation's value, else the manifest's default; a secret always starts empty. */
function initial(spec: SettingSpec, value: unknown): string | boolean {
  if (spec.secret) return '';
  const v = value === undefined ? spec.default : value;
  if (spec.type === 'boolean') return v === true;
  if (v === undefined || v === null) return '';
  if (spec.type === 'array' && Array.isArray(v) && v.every((x) => typeof x !== 'object')) return v.join('\n');
  if (spec.type === 'array' || spec.type === 'object') return JSON.stringify(v, null, 2);
  return String(v);
}

/** The form's text back into the manifest's types; a blank field (or a secret left empty) is left out. */
function parse(specs: [string, SettingSpec][], draft: Draft): { values: Record<string, unknown>; errors: Record<string, string> } {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [name, spec] of specs) {
    const raw = draft[name];
    if (spec.type === 'boolean') {
      values[name] = raw === true;
      continue;
    }
    const text = String(raw ?? '');
    if (!text.trim()) continue;
    if (spec.type === 'number') values[name] = Number(text);
    else if (spec.type === 'string') values[name] = text;
    else if (spec.type === 'array' && !text.trim().startsWith('[')) {
      const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
      values[name] = spec.items === 'number' ? lines.map(Number) : spec.items === 'boolean' ? lines.map((l) => l === 'true') : lines;
    } else {
      try {
        values[name] = JSON.parse(text);
      } catch {
        errors[name] = s.notJson(name);
      }
    }
  }
  return { values, errors };
}

/**
 * The settings form generated from the manifest's settings: text, number, checkbox, one-per-line lists, JSON for
 * objects; secrets are write-only (shown as set or not set, never read back; left empty they keep their value).
 */
export function SettingsForm({
  specs,
  current,
  submitLabel,
  busy,
  error,
  disabledReason,
  onSubmit,
}: {
  specs: Record<string, SettingSpec>;
  current?: Record<string, unknown>;
  submitLabel: string;
  busy?: boolean;
  error?: unknown;
  /** Why the caller may not change them (the form is then read-only). */
  disabledReason?: string | null;
  onSubmit: (values: Record<string, unknown>) => void;
}) {
  const id = useId();
  const entries = Object.entries(specs);
  const [draft, setDraft] = useState<Draft>(() => Object.fromEntries(entries.map(([name, spec]) => [name, initial(spec, current?.[name])])));
  const [local, setLocal] = useState<Record<string, string>>({});
  const apiMessage = (name: string) => (error instanceof ApiError ? error.fieldMessage(`settings.${name}`) : undefined);
  const named = error instanceof ApiError && entries.some(([name]) => apiMessage(name));
  const disabled = !!disabledReason;

  function submit(e: FormEvent) {
    e.preventDefault();
    const { values, errors } = parse(entries, draft);
    setLocal(errors);
    if (!Object.keys(errors).length) onSubmit(values);
  }

  return (
    <form className="ap-stack" onSubmit={submit} noValidate>
      {entries.length ? null : <p className="ap-muted">{s.noSettings}</p>}
      {entries.map(([name, spec]) => {
        const label = spec.required ? `${name} (${s.requiredSetting})` : name;
        const err = local[name] ?? apiMessage(name);
        const value = draft[name];
        const change = (next: string | boolean) => setDraft((d) => ({ ...d, [name]: next }));
        if (spec.type === 'boolean')
          return (
            <div className="ap-field" key={name}>
              <label className="ap-pl-choice">
                <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => change(e.target.checked)} aria-invalid={err ? true : undefined} /> {label}
              </label>
              {spec.description ? <p className="ap-field__hint">{spec.description}</p> : null}
              {err ? (
                <p className="ap-field__error" role="alert">
                  {err}
                </p>
              ) : null}
            </div>
          );
        if (spec.secret) {
          const set = isSecretSet(current?.[name]);
          return (
            <Field
              key={name}
              id={`${id}-${name}`}
              label={label}
              type="password"
              autoComplete="new-password"
              value={String(value)}
              disabled={disabled}
              onChange={(e) => change(e.target.value)}
              error={err}
              hint={
                <>
                  <span className={`ap-pl-secret ap-pl-secret--${set ? 'set' : 'unset'}`}>{s.secretStatus(set)}</span> {spec.description ?? ''} {s.secretHint(set)}
                </>
              }
            />
          );
        }
        if (spec.type === 'array' || spec.type === 'object')
          return (
            <TextArea
              key={name}
              id={`${id}-${name}`}
              className="ap-code-input"
              label={label}
              rows={3}
              value={String(value)}
              disabled={disabled}
              onChange={(e) => change(e.target.value)}
              error={err}
              spellCheck={false}
              hint={`${spec.description ? `${spec.description} ` : ''}${spec.type === 'array' ? s.listHint : s.jsonHint}`}
            />
          );
        return (
          <Field
            key={name}
            id={`${id}-${name}`}
            label={label}
            type={spec.type === 'number' ? 'number' : 'text'}
            autoComplete="off"
            value={String(value)}
            disabled={disabled}
            onChange={(e) => change(e.target.value)}
            error={err}
            hint={spec.description}
          />
        );
      })}
      {error && !named ? <ErrorText error={error} /> : null}
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={busy} disabled={disabled} aria-describedby={disabled ? `${id}-why` : undefined}>
          {submitLabel}
        </Button>
        {disabled ? (
          <span className="ap-muted" id={`${id}-why`}>
            {disabledReason}
          </span>
        ) : null}
      </div>
    </form>
  );
}
