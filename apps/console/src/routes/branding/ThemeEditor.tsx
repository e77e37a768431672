import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { WidgetPreview } from '../../components/WidgetPreview';
import { ApiError } from '../../lib/errors';
import { ColorField } from './ColorField';
import { COLOR_NAMES, LAYOUT_NAMES, TYPOGRAPHY_NAMES, useCreateTheme, useSelectTheme, useThemes, variablesOf, widgetDraft, type Theme, type ThemeDefinition } from './queries';
import { s } from './strings';

const CHOICES: Record<string, string[]> = { sidebarPosition: ['left', 'right'], density: ['compact', 'comfortable', 'spacious'] };

/** `/branding/themes/new?app=`: a new theme from a base, edited with the widget showing it live. */
export default function ThemeEditor() {
  const themes = useThemes();
  if (themes.isPending) return <Loading />;
  if (themes.isError) return <ErrorState error={themes.error} onRetry={() => void themes.refetch()} />;
  return <Editor themes={themes.data} />;
}

function Editor({ themes }: { themes: Theme[] }) {
  const [params] = useSearchParams();
  const appId = params.get('app');
  const navigate = useNavigate();
  const create = useCreateTheme();
  const select = useSelectTheme(appId ?? '');
  const [base, setBase] = useState('default');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [changes, setChanges] = useState<ThemeDefinition>({ colors: {}, typography: {}, layout: {} });
  const baseDef = (themes.find((t) => t.id === base)?.definition ?? { colors: {}, typography: {}, layout: {} }) as ThemeDefinition;
  const merged: ThemeDefinition = {
    colors: { ...baseDef.colors, ...changes.colors },
    typography: { ...baseDef.typography, ...changes.typography },
    layout: { ...baseDef.layout, ...changes.layout },
    custom: baseDef.custom ?? {},
  };
  const draft = widgetDraft(name || s.editor.title, 'draft', variablesOf(merged), { widget: { welcomeMessage: s.preview.greeting } });
  const apiError = create.error instanceof ApiError ? create.error : null;
  const err = (path: string) => apiError?.fieldMessage(path);
  const back = `/branding${appId ? `?app=${encodeURIComponent(appId)}` : ''}`;
  const set = (section: 'colors' | 'typography' | 'layout', key: string, value: string) =>
    setChanges((c) => ({ ...c, [section]: { ...c[section], [key]: value } }));

  const submit = (use: boolean) =>
    create.mutate(
      { name, description: description || undefined, extend: base, colors: changes.colors, typography: changes.typography, layout: changes.layout },
      {
        onSuccess: (theme) => {
          if (use && appId) select.mutate(theme.id!, { onSuccess: () => navigate(back) });
          else navigate(back);
        },
      },
    );

  return (
    <>
      <PageHeader title={s.editor.title} description={s.editor.body} actions={<Link to={back}>{s.editor.back}</Link>} />
      <div className="ap-br-layout">
        <form
          className="ap-card ap-stack"
          aria-label={s.editor.title}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit(false);
          }}
        >
          <Field label={s.editor.name} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={err('name')} />
          <Field label={s.editor.description} maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} error={err('description')} />
          <div className="ap-field">
            <label htmlFor="theme-extend">{s.editor.extend}</label>
            <select
              id="theme-extend"
              className="ap-select"
              value={base}
              onChange={(e) => {
                setBase(e.target.value);
                setChanges({ colors: {}, typography: {}, layout: {} });
              }}
            >
              {themes.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {err('extend') ? <p className="ap-field__error">{err('extend')}</p> : null}
          </div>
          <fieldset className="ap-br-fieldset">
            <legend>{s.editor.colors}</legend>
            <div className="ap-br-grid">
              {COLOR_NAMES.map((c) => (
                <ColorField
                  key={c}
                  label={s.editor.colorLabel(s.editor.names[c] ?? c)}
                  pickerLabel={s.editor.colorPicker(s.editor.names[c] ?? c)}
                  value={merged.colors[c] ?? ''}
                  onChange={(v) => set('colors', c, v)}
                  error={err(`colors.${c}`)}
                />
              ))}
            </div>
          </fieldset>
          <fieldset className="ap-br-fieldset">
            <legend>{s.editor.typography}</legend>
            <div className="ap-br-grid">
              {TYPOGRAPHY_NAMES.map((k) => (
                <Field key={k} label={s.editor.names[k] ?? k} value={merged.typography[k] ?? ''} onChange={(e) => set('typography', k, e.target.value)} error={err(`typography.${k}`)} />
              ))}
            </div>
          </fieldset>
          <fieldset className="ap-br-fieldset">
            <legend>{s.editor.layout}</legend>
            <div className="ap-br-grid">
              {LAYOUT_NAMES.map((k) =>
                CHOICES[k] ? (
                  <div className="ap-field" key={k}>
                    <label htmlFor={`theme-${k}`}>{s.editor.names[k]}</label>
                    <select id={`theme-${k}`} className="ap-select" value={merged.layout[k] ?? ''} onChange={(e) => set('layout', k, e.target.value)}>
                      {CHOICES[k]!.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  </div>
                ) : (
                  <Field key={k} label={s.editor.names[k] ?? k} value={merged.layout[k] ?? ''} onChange={(e) => set('layout', k, e.target.value)} error={err(`layout.${k}`)} />
                ),
              )}
            </div>
          </fieldset>
          <ErrorText error={apiError && apiError.details.length ? null : create.error} />
          <ErrorText error={select.error} />
          <div className="ap-actions">
            <Button type="submit" variant="primary" busy={create.isPending}>
              {s.editor.save}
            </Button>
            {appId ? (
              <Button busy={create.isPending || select.isPending} onClick={() => submit(true)}>
                {s.editor.saveAndUse}
              </Button>
            ) : null}
          </div>
        </form>
        <aside className="ap-card ap-stack ap-br-preview" aria-labelledby="theme-preview-title">
          <h2 id="theme-preview-title">{s.preview.title}</h2>
          <p className="ap-muted">{s.preview.body}</p>
          <WidgetPreview appId={appId ?? 'preview'} title={s.preview.frame} draft={draft} reply={s.preview.reply} />
        </aside>
      </div>
    </>
  );
}
