import { Check, ExternalLink, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { Link } from 'react-router';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { Field, TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { WidgetPreview } from '../../components/WidgetPreview';
import { ApiError } from '../../lib/errors';
import { ColorField, Swatches } from './ColorField';
import { CssEditor } from './CssEditor';
import { locateRefusal } from './css-refusal';
import {
  BRAND_COLORS,
  POSITIONS,
  useApplication,
  useBranding,
  useHostedPage,
  usePlan,
  useSaveBranding,
  useSelectTheme,
  useTeam,
  useThemes,
  MANAGING_ROLES,
  variablesOf,
  widgetDraft,
  type Branding,
  type BrandingInput,
  type Theme,
  type ThemeDefinition,
} from './queries';
import { s } from './strings';

/** Themes & branding of one application: the theme, the branding over it, the hosted page, and the live preview. */
export default function BrandingPage() {
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <ApplicationScope id="branding-app" emptyBody={s.emptyBody}>
        {(appId) => <BrandingScreen key={appId} appId={appId} />}
      </ApplicationScope>
    </>
  );
}

function BrandingScreen({ appId }: { appId: string }) {
  const app = useApplication(appId);
  const themes = useThemes();
  const branding = useBranding(appId);
  if (app.isPending || themes.isPending || branding.isPending) return <Loading />;
  const failed = app.error ?? themes.error ?? branding.error;
  if (failed)
    return (
      <ErrorState
        error={failed}
        onRetry={() => {
          void app.refetch();
          void themes.refetch();
          void branding.refetch();
        }}
      />
    );
  return <Loaded app={app.data!} themes={themes.data!} branding={branding.data!} />;
}

type App = NonNullable<ReturnType<typeof useApplication>['data']>;

/** The form's values: every field a string (empty keeps the theme's value), the CSS and the attribution. */
interface FormValues {
  colors: Record<string, string>;
  typography: { bodyFont: string; headingFont: string };
  widget: { position: string; borderRadius: string; welcomeMessage: string; placeholder: string };
  email: { fromName: string; replyTo: string; headerLogoUrl: string; footerText: string };
  customCss: string;
  showAttribution: boolean;
}

const toForm = (b: Branding): FormValues => ({
  colors: Object.fromEntries(BRAND_COLORS.map((c) => [c, b.colors?.[c] ?? ''])),
  typography: { bodyFont: b.typography?.bodyFont ?? '', headingFont: b.typography?.headingFont ?? '' },
  widget: { position: b.widget?.position ?? '', borderRadius: b.widget?.borderRadius ?? '', welcomeMessage: b.widget?.welcomeMessage ?? '', placeholder: b.widget?.placeholder ?? '' },
  email: { fromName: b.email?.fromName ?? '', replyTo: b.email?.replyTo ?? '', headerLogoUrl: b.email?.headerLogoUrl ?? '', footerText: b.email?.footerText ?? '' },
  customCss: b.customCss ?? '',
  showAttribution: b.showAttribution !== false,
});

const toInput = (v: FormValues): BrandingInput => ({
  colors: v.colors,
  typography: v.typography,
  widget: v.widget as BrandingInput['widget'],
  email: v.email,
  customCss: v.customCss,
  showAttribution: v.showAttribution,
});

function Loaded({ app, themes, branding }: { app: App; themes: Theme[]; branding: Branding }) {
  const form = useForm<FormValues>({ defaultValues: toForm(branding) });
  const values = form.watch();
  const themeId = app.theme?.themeId ?? 'default';
  const theme = themes.find((t) => t.id === themeId) ?? themes.find((t) => t.id === 'default');
  const customization = (app.theme?.customization ?? {}) as Partial<ThemeDefinition>;
  const themeVariables = useMemo(
    () => ({ ...(theme?.variables ?? {}), ...variablesOf({ colors: customization.colors ?? {}, typography: customization.typography ?? {}, layout: customization.layout ?? {}, custom: customization.custom ?? {} }) }),
    [theme, customization],
  );
  const draft = widgetDraft(app.name ?? '', themeId, themeVariables, toInput(values));
  const team = useTeam(app.teamId);
  // What the caller's role cannot do is shown disabled with the reason; the API stays the authority (403).
  const readOnly = app.teamId ? (team.data ? (MANAGING_ROLES.includes(team.data.role) ? null : s.readOnly(team.data.role, team.data.name)) : s.roleLoading) : null;

  return (
    <div className="ap-br-layout">
      <div className="ap-stack">
        {readOnly ? (
          <p className="ap-notice" id="branding-readonly">
            {readOnly}
          </p>
        ) : null}
        <ErrorText error={team.error} />
        <ThemePicker appId={app.id!} themes={themes} current={themeId} readOnly={!!readOnly} />
        <BrandingForm app={app} form={form} themeColors={(theme?.definition as Partial<ThemeDefinition> | undefined)?.colors ?? {}} readOnly={!!readOnly} />
        <HostedPage app={app} readOnly={!!readOnly} />
      </div>
      <aside className="ap-card ap-stack ap-br-preview" aria-labelledby="branding-preview-title">
        <h2 id="branding-preview-title">{s.preview.title}</h2>
        <p className="ap-muted">{s.preview.body}</p>
        <WidgetPreview appId={app.id!} title={s.preview.frame} draft={draft} reply={s.preview.reply} />
      </aside>
    </div>
  );
}

function ThemePicker({ appId, themes, current, readOnly }: { appId: string; themes: Theme[]; current: string; readOnly: boolean }) {
  const select = useSelectTheme(appId);
  const [done, setDone] = useState('');
  return (
    <section className="ap-card ap-stack" aria-labelledby="themes-title">
      <div className="ap-page-header">
        <div>
          <h2 id="themes-title">{s.themes.title}</h2>
          <p className="ap-muted">{s.themes.body}</p>
        </div>
        <Link className="ap-button ap-button--secondary" to={`/branding/themes/new?app=${encodeURIComponent(appId)}`}>
          <Plus aria-hidden size={16} />
          {s.themes.newTheme}
        </Link>
      </div>
      <ul className="ap-br-themes" aria-label={s.themes.listLabel}>
        {themes.map((theme) => {
          const def = (theme.definition ?? {}) as Partial<ThemeDefinition>;
          const colors = ['primary', 'background', 'text', 'userBubble', 'assistantBubble'].map((c) => def.colors?.[c] ?? '#ffffff');
          const inUse = theme.id === current;
          return (
            <li key={theme.id} className={`ap-br-theme${inUse ? ' ap-br-theme--current' : ''}`} aria-label={theme.name}>
              <div className="ap-br-theme__head">
                <span className="ap-strong">{theme.name}</span>
                <span className="ap-br-badge">{theme.preset ? s.themes.preset : theme.own ? s.themes.own : s.themes.published}</span>
              </div>
              {theme.description ? <p className="ap-muted">{theme.description}</p> : null}
              <Swatches colors={colors} label={s.themes.swatches(theme.name ?? '')} />
              {inUse ? (
                <p className="ap-br-theme__current">
                  <Check aria-hidden size={16} />
                  {s.themes.current}
                </p>
              ) : (
                <Button
                  disabled={readOnly}
                  aria-describedby={readOnly ? 'branding-readonly' : undefined}
                  busy={select.isPending && select.variables === theme.id}
                  onClick={() =>
                    select.mutate(theme.id!, {
                      onSuccess: () => setDone(s.themes.usedToast(theme.name ?? '')),
                    })
                  }
                >
                  {s.themes.use(theme.name ?? '')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ErrorText error={select.error} />
      <p className="ap-muted" role="status">
        {done}
      </p>
    </section>
  );
}

function BrandingForm({ app, form, themeColors, readOnly }: { app: App; form: ReturnType<typeof useForm<FormValues>>; themeColors: Record<string, string>; readOnly: boolean }) {
  const save = useSaveBranding(app.id!);
  const plan = usePlan();
  const { register, watch, setValue, handleSubmit, reset } = form;
  const [saved, setSaved] = useState(false);
  const apiError = save.error instanceof ApiError ? save.error : null;
  const err = (path: string) => apiError?.fieldMessage(path);
  const css = watch('customCss');
  const cssError = err('customCss');
  const refusal = useMemo(() => (cssError ? locateRefusal(save.variables?.customCss ?? '', cssError) : null), [cssError, save.variables]);
  // The platform's admin is held to no plan (`exempt`); the plans are offered only where payments are configured.
  const free = !app.teamId && plan.data?.effectivePlan === 'free' && !plan.data?.exempt;
  const attributionLocked = free && watch('showAttribution');
  const fieldError = apiError && apiError.status === 400 && apiError.details.length ? null : save.error;

  const onSubmit = handleSubmit((values) =>
    save.mutate(toInput(values), {
      onSuccess: (b) => {
        reset(toForm(b));
        setSaved(true);
      },
    }),
  );

  return (
    <form className="ap-card ap-stack" aria-labelledby="branding-title" onSubmit={onSubmit} onChange={() => setSaved(false)} noValidate>
      <UnsavedChangesGuard dirty={form.formState.isDirty && !readOnly} />
      <div>
        <h2 id="branding-title">{s.branding.title}</h2>
        <p className="ap-muted">{s.branding.body}</p>
      </div>
      <fieldset className="ap-br-fieldset">
        <legend>{s.branding.colors}</legend>
        <div className="ap-br-grid">
          {BRAND_COLORS.map((name) => (
            <ColorField
              key={name}
              label={s.branding.color(name)}
              pickerLabel={s.branding.colorPicker(name)}
              value={watch(`colors.${name}`) ?? ''}
              onChange={(v) => setValue(`colors.${name}`, v, { shouldDirty: true })}
              placeholder={themeColors[name]}
              error={err(`colors.${name}`)}
            />
          ))}
        </div>
      </fieldset>
      <div className="ap-br-grid">
        <Field label={s.branding.bodyFont} hint={s.branding.fontHint} error={err('typography.bodyFont')} {...register('typography.bodyFont')} />
        <Field label={s.branding.headingFont} error={err('typography.headingFont')} {...register('typography.headingFont')} />
      </div>
      <fieldset className="ap-br-fieldset">
        <legend>{s.branding.widget}</legend>
        <div className="ap-br-grid">
          <div className="ap-field">
            <label htmlFor="branding-position">{s.branding.position}</label>
            <select id="branding-position" className="ap-select" {...register('widget.position')}>
              <option value="">{s.branding.positionDefault}</option>
              {POSITIONS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            {err('widget.position') ? <p className="ap-field__error">{err('widget.position')}</p> : null}
          </div>
          <Field label={s.branding.borderRadius} placeholder="12px" error={err('widget.borderRadius')} {...register('widget.borderRadius')} />
        </div>
        <TextArea label={s.branding.welcome} rows={2} maxLength={500} error={err('widget.welcomeMessage')} {...register('widget.welcomeMessage')} />
        <Field label={s.branding.placeholder} maxLength={100} error={err('widget.placeholder')} {...register('widget.placeholder')} />
      </fieldset>
      <fieldset className="ap-br-fieldset">
        <legend>{s.branding.email}</legend>
        <Field label={s.branding.logo} type="url" placeholder="https://" error={err('email.headerLogoUrl')} {...register('email.headerLogoUrl')} />
        <div className="ap-br-grid">
          <Field label={s.branding.fromName} error={err('email.fromName')} {...register('email.fromName')} />
          <Field label={s.branding.replyTo} type="email" error={err('email.replyTo')} {...register('email.replyTo')} />
        </div>
        <TextArea label={s.branding.footer} rows={2} error={err('email.footerText')} {...register('email.footerText')} />
      </fieldset>
      <CssEditor value={css} onChange={(text) => setValue('customCss', text, { shouldDirty: true })} refusal={refusal && css === save.variables?.customCss ? refusal : null} error={cssError} />
      <div className="ap-field">
        <div className="ap-br-check">
          <input id="branding-attribution" type="checkbox" disabled={attributionLocked} aria-describedby="branding-attribution-why" {...register('showAttribution')} />
          <label htmlFor="branding-attribution">{s.branding.attribution}</label>
        </div>
        <p className="ap-field__hint" id="branding-attribution-why">
          {app.teamId ? s.branding.attributionTeam : free ? s.branding.attributionFree : plan.data ? s.branding.attributionPaid : ''}{' '}
          {free && plan.data?.payments ? <Link to="/billing">{s.branding.upgrade}</Link> : null}
        </p>
        {err('showAttribution') ? <p className="ap-field__error">{err('showAttribution')}</p> : null}
      </div>
      <ErrorText error={fieldError} />
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={readOnly} aria-describedby={readOnly ? 'branding-readonly' : undefined}>
          {s.branding.save}
        </Button>
        <span role="status" className="ap-muted">
          {saved ? s.branding.saved : ''}
        </span>
      </div>
    </form>
  );
}

function HostedPage({ app, readOnly }: { app: App; readOnly: boolean }) {
  const toggle = useHostedPage(app.id!);
  const enabled = app.hostedPage?.enabled === true;
  const link = `${window.location.origin}/chat/${app.slug ?? ''}`;
  return (
    <section className="ap-card ap-stack" aria-labelledby="hosted-title">
      <div>
        <h2 id="hosted-title">{s.hosted.title}</h2>
        <p className="ap-muted">{s.hosted.body}</p>
      </div>
      <div className="ap-br-check">
        <input id="hosted-toggle" type="checkbox" role="switch" checked={enabled} disabled={toggle.isPending || readOnly} aria-describedby={readOnly ? 'branding-readonly' : undefined} aria-checked={enabled} onChange={(e) => toggle.mutate(e.target.checked)} />
        <label htmlFor="hosted-toggle">{s.hosted.toggle}</label>
      </div>
      {enabled ? (
        <div className="ap-stack">
          <p>{s.hosted.on}</p>
          <div className="ap-br-link">
            <code aria-label={s.hosted.linkLabel}>{link}</code>
            <CopyButton value={link} />
            <a className="ap-button ap-button--secondary" href={link} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden size={16} />
              {s.hosted.open}
            </a>
          </div>
        </div>
      ) : (
        <p className="ap-muted">{s.hosted.off}</p>
      )}
      <ErrorText error={toggle.error} />
    </section>
  );
}
