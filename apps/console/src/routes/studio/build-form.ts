import type { StudioConfig } from './queries';
import { parseFallbacks, resilienceOf, resilienceText, type Resilience, type ResilienceText } from '../../lib/resilience-form';

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
  resilience: ResilienceText;
}

export { parseFallbacks };

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

