import type { StudioConfig } from './queries';

/** The Build form's mapping to and from the API's studio configuration (kept apart so it is tested without a browser). */
type Settings = NonNullable<StudioConfig['settings']>;
export type NumberField = 'temperature' | 'maxTokens' | 'topP' | 'frequencyPenalty' | 'presencePenalty';
/** The settings as typed: text, so a half-typed number is not lost; empty means "not set" for the optional ones. */
type SettingsText = Record<NumberField, string>;
export const OPTIONAL: NumberField[] = ['frequencyPenalty', 'presencePenalty'];

export interface Form {
  instructions: string;
  variables: Record<string, string>;
  provider: string;
  modelId: string;
  settings: SettingsText;
  openingMessage: string;
  suggested: string;
  /** Retries and fallbacks (docs/connections.md): numbers as typed, fallbacks one `provider/model` per line, in order. */
  resilience: { maxRetries: string; baseDelayMs: string; maxDelayMs: string; fallbacks: string };
}

interface Resilience {
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number };
  fallbacks?: { provider: string; model: string }[];
}

/** `provider/model` lines (a connection's name or a provider id, then the model, which may hold slashes). */
export function parseFallbacks(text: string): { provider: string; model: string }[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('/');
      return at < 0 ? { provider: line, model: '' } : { provider: line.slice(0, at).trim(), model: line.slice(at + 1).trim() };
    });
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*\}\}/g;
export const placeholders = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];

export function toForm(c: StudioConfig): Form {
  const st = (c.settings ?? {}) as Settings;
  const text = (v: number | undefined) => (v === undefined || v === null ? '' : String(v));
  return {
    instructions: c.instructions ?? '',
    variables: { ...(c.variables ?? {}) },
    provider: c.provider ?? 'provider_a',
    modelId: c.modelId ?? '',
    settings: { temperature: text(st.temperature), maxTokens: text(st.maxTokens), topP: text(st.topP), frequencyPenalty: text(st.frequencyPenalty), presencePenalty: text(st.presencePenalty) },
    openingMessage: c.openingMessage ?? '',
    suggested: (c.suggestedQuestions ?? []).join('\n'),
    resilience: resilienceText((st as { resilience?: Resilience }).resilience),
  };
}

function resilienceText(r: Resilience | undefined): Form['resilience'] {
  const text = (v: number | undefined) => (v === undefined || v === null ? '' : String(v));
  return {
    maxRetries: text(r?.retry?.maxRetries),
    baseDelayMs: text(r?.retry?.baseDelayMs),
    maxDelayMs: text(r?.retry?.maxDelayMs),
    fallbacks: (r?.fallbacks ?? []).map((f) => `${f.provider}/${f.model}`).join('\n'),
  };
}

/** The retry and fallback settings as the API takes them; none when nothing is set (a turn then calls its model once). */
function resilienceOf(f: Form['resilience'] | undefined): Resilience | undefined {
  if (!f) return undefined;
  const retry: NonNullable<Resilience['retry']> = {};
  for (const k of ['maxRetries', 'baseDelayMs', 'maxDelayMs'] as const) if (f[k].trim() !== '') retry[k] = Number(f[k]);
  const fallbacks = parseFallbacks(f.fallbacks);
  if (!Object.keys(retry).length && !fallbacks.length) return undefined;
  return { ...(Object.keys(retry).length ? { retry } : {}), ...(fallbacks.length ? { fallbacks } : {}) };
}

/** The form as the API's draft body: only the placeholders' values, numbers as numbers, empty optional settings left out. */
export function toConfig(f: Form): StudioConfig {
  const settings: Record<string, number> = {};
  for (const [k, v] of Object.entries(f.settings)) if (v.trim() !== '') settings[k] = Number(v);
  const resilience = resilienceOf(f.resilience);
  const used = placeholders(f.instructions);
  return {
    instructions: f.instructions,
    variables: Object.fromEntries(used.filter((n) => Object.hasOwn(f.variables, n)).map((n) => [n, f.variables[n]!])),
    provider: f.provider as StudioConfig['provider'],
    modelId: f.modelId,
    settings: (resilience ? { ...settings, resilience } : settings) as Settings,
    openingMessage: f.openingMessage,
    suggestedQuestions: f.suggested.split('\n').map((q) => q.trim()).filter(Boolean),
  };
}

