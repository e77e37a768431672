import { useForm } from 'react-hook-form';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { useSettingRanges } from '../../lib/ranges';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { t } from '../../lib/strings';
import { resilienceOf, resilienceText, type Resilience, type ResilienceText } from '../../lib/resilience-form';
import { useModelCatalogue } from '../../lib/model-catalogue';
import { useSaveConfig, type ConfigInput, type ModelConfig, type ProviderId } from './queries';
import { s } from './strings';

interface Values {
  name: string;
  provider: ProviderId;
  modelId: string;
  settings: { temperature: string; maxTokens: string; topP: string; systemPrompt: string };
  /** Retries, load sharing and fallbacks (docs/connections.md), as the studio's model section takes them. */
  resilience: ResilienceText;
}

/** The API's field paths and where they land in the form. */
const FIELDS = ['name', 'provider', 'modelId', 'settings.temperature', 'settings.maxTokens', 'settings.topP', 'settings.systemPrompt'] as const;
/** The retry fields' API paths and their form fields. */
const RESILIENCE_FIELDS = {
  'settings.resilience.retry.maxRetries': 'resilience.maxRetries',
  'settings.resilience.retry.baseDelayMs': 'resilience.baseDelayMs',
  'settings.resilience.retry.maxDelayMs': 'resilience.maxDelayMs',
  // A path matches its own details and those beneath it (`settings.resilience.fallbacks.1`).
  'settings.resilience.fallbacks': 'resilience.fallbacks',
  'settings.resilience.balance': 'resilience.balance',
} as const;
const API_FIELDS = [...FIELDS, ...(Object.keys(RESILIENCE_FIELDS) as (keyof typeof RESILIENCE_FIELDS)[])] as const;

const num = (v: string): number | undefined => (v.trim() === '' ? undefined : Number(v));

/**
 * The form's text as the API's body: empty settings left out, numbers sent as typed (the API judges the ranges).
 * Retries and fallbacks emptied on a config that had them are sent as null, which clears them.
 */
export function toConfigInput(values: Values, had?: { resilience?: unknown }): ConfigInput {
  const resilience: Resilience | null | undefined = resilienceOf(values.resilience) ?? (had?.resilience ? null : undefined);
  const settings = {
    temperature: num(values.settings.temperature),
    maxTokens: num(values.settings.maxTokens),
    topP: num(values.settings.topP),
    systemPrompt: values.settings.systemPrompt.trim() || undefined,
    resilience,
  };
  return {
    name: values.name.trim(),
    provider: values.provider,
    modelId: values.modelId,
    settings: Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)),
  };
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/** Create or edit a config: provider and model from the catalogue, settings and limits; the API's 400s on their fields. */
export function ConfigForm({ applicationId, teamId = null, config, onDone }: { applicationId?: string; teamId?: string | null; config?: ModelConfig; onDone: () => void }) {
  const catalogue = useModelCatalogue(teamId);
  // The platform's allowed ranges (the studio's draft reports them), shown before a save rather than after a refusal.
  const ranges = useSettingRanges(applicationId).data;
  const save = useSaveConfig(applicationId, config?._id);
  const form = useForm<Values>({
    defaultValues: {
      name: config?.name ?? '',
      provider: config?.provider ?? 'provider_a',
      modelId: config?.modelId ?? '',
      settings: {
        temperature: text(config?.settings?.temperature),
        maxTokens: text(config?.settings?.maxTokens),
        topP: text(config?.settings?.topP),
        systemPrompt: config?.settings?.systemPrompt ?? '',
      },
      resilience: resilienceText((config?.settings as { resilience?: Resilience } | undefined)?.resilience),
    },
  });
  const { errors } = form.formState;
  const provider = form.watch('provider');
  const info = catalogue.data?.find((p) => p.id === provider);
  const models = info?.models ?? [];
  const submit = form.handleSubmit((values) =>
    save.mutate(toConfigInput({ ...values, modelId: values.modelId || info?.defaultModel || '' }, config?.settings as { resilience?: unknown } | undefined), {
      onSuccess: onDone,
      onError: (error) => {
        for (const [field, message] of Object.entries(fieldErrors(error, API_FIELDS))) {
          const at = (RESILIENCE_FIELDS as Record<string, string>)[field] ?? field;
          form.setError(at as keyof Values, { message: message as string });
        }
      },
    }),
  );
  const unplaced = save.error && !Object.keys(fieldErrors(save.error, API_FIELDS)).length ? save.error : null;
  const modelError = errors.modelId?.message;

  return (
    <form onSubmit={submit} noValidate className="ap-stack">
      <UnsavedChangesGuard dirty={form.formState.isDirty && !save.isSuccess} />
      <Field label={s.name} error={errors.name?.message} {...form.register('name', { required: `${s.name} is required` })} />
      <div className="ap-field">
        <label htmlFor="mc-provider">{s.provider}</label>
        <select
          id="mc-provider"
          {...form.register('provider', {
            onChange: () => form.setValue('modelId', ''),
          })}
        >
          {(catalogue.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {s.providers[p.id ?? ''] ?? p.id}
            </option>
          ))}
          {!catalogue.data ? <option value={provider}>{s.providers[provider] ?? provider}</option> : null}
        </select>
        {errors.provider?.message ? (
          <p className="ap-field__error" role="alert">
            {errors.provider.message}
          </p>
        ) : null}
      </div>
      <div className="ap-field">
        <label htmlFor="mc-model">{s.model}</label>
        <select id="mc-model" aria-invalid={modelError ? true : undefined} aria-describedby={modelError ? 'mc-model-error' : undefined} {...form.register('modelId')}>
          <option value="">{info?.defaultModel ? `${info.defaultModel} (default)` : '—'}</option>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
            </option>
          ))}
          {config?.modelId && !models.some((m) => m.id === config.modelId) ? <option value={config.modelId}>{config.modelId}</option> : null}
        </select>
        {modelError ? (
          <p className="ap-field__error" id="mc-model-error" role="alert">
            {modelError}
          </p>
        ) : null}
      </div>
      <div className="ap-mc-grid">
        <Field label={s.temperature} inputMode="decimal" hint={hint(ranges?.temperature?.[provider])} error={errors.settings?.temperature?.message} {...form.register('settings.temperature')} />
        <Field
          label={s.maxTokens}
          inputMode="numeric"
          hint={hint(ranges?.maxTokens && { min: ranges.maxTokens.min, max: Math.min(ranges.maxTokens.max ?? Infinity, models.find((m) => m.id === (form.watch('modelId') || info?.defaultModel))?.maxOutputTokens ?? Infinity) })}
          error={errors.settings?.maxTokens?.message}
          {...form.register('settings.maxTokens')}
        />
        <Field label={s.topP} inputMode="decimal" hint={hint(ranges?.topP)} error={errors.settings?.topP?.message} {...form.register('settings.topP')} />
      </div>
      <TextArea label={s.systemPrompt} rows={3} error={errors.settings?.systemPrompt?.message} {...form.register('settings.systemPrompt')} />
      <fieldset className="ap-stack">
        <legend>{s.resilienceTitle}</legend>
        <p className="ap-muted">{s.resilienceHelp}</p>
        <div className="ap-mc-grid">
          <Field label={s.maxRetries} type="number" inputMode="numeric" min={0} max={5} step={1} hint={s.maxRetriesHint} error={errors.resilience?.maxRetries?.message} {...form.register('resilience.maxRetries')} />
          <Field label={s.baseDelayMs} type="number" inputMode="numeric" min={0} step={100} hint={s.baseDelayHint} error={errors.resilience?.baseDelayMs?.message} {...form.register('resilience.baseDelayMs')} />
          <Field label={s.maxDelayMs} type="number" inputMode="numeric" min={0} step={100} error={errors.resilience?.maxDelayMs?.message} {...form.register('resilience.maxDelayMs')} />
        </div>
        <TextArea label={s.balance} rows={3} spellCheck={false} hint={s.balanceHint} error={errors.resilience?.balance?.message} {...form.register('resilience.balance')} />
        <TextArea label={s.fallbacks} rows={3} spellCheck={false} hint={s.fallbacksHint} error={errors.resilience?.fallbacks?.message} {...form.register('resilience.fallbacks')} />
      </fieldset>
      <ErrorText error={unplaced} />
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {save.isPending ? t.saving : config ? t.save : t.create}
        </Button>
      </div>
    </form>
  );
}

/** "From 0 to 2; empty for the default.", when the range is known. */
function hint(range: { min?: number; max?: number } | undefined): string | undefined {
  return range && range.min !== undefined && range.max !== undefined && Number.isFinite(range.max) ? s.range(range.min, range.max) : undefined;
}
