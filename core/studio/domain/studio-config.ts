import type { ModelChoiceResolver } from '../../connections/use-cases/model-choice';
import * as yup from 'yup';
import { maxTemperature, MAX_SYSTEM_PROMPT_LENGTH, MAX_TOKENS_LIMIT, PENALTY_RANGE, resolveModelSettings } from '../../ai/domain/model-settings';
import { PROVIDER_IDS, type ProviderId } from '../../ai/domain/provider-id';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import { extractVariables, renderTemplate } from '../../prompts/domain/placeholders';
import { ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { RetrievalSettings } from '../../knowledge/domain/retrieval-settings';
import { validateDraftRetrieval } from '../../knowledge/use-cases/retrieval-settings.use-case';

/** The settings the studio edits (SPEC 2.3 without the system prompt, which is `instructions`). */
export type StudioSettings = Omit<ModelSettings, 'systemPrompt'>;

/**
 * An application's configuration as the studio edits it (docs/studio.md): the draft, and the snapshot of
 * each published version. `instructions` may hold `{{variables}}`; `variables` are their values for end users.
 */
export interface StudioConfig {
  instructions: string;
  variables: Record<string, string>;
  provider: ProviderId;
  modelId: string;
  settings: StudioSettings;
  openingMessage: string;
  suggestedQuestions: string[];
  /**
   * How this draft's chats retrieve knowledge (mode, top-K, score threshold, reranker); absent: the
   * application's retrieval settings. Publishing makes them the application's.
   */
  retrieval?: RetrievalSettings;
}

export const MAX_OPENING_MESSAGE_LENGTH = 500;
export const MAX_SUGGESTED_QUESTIONS = 5;
export const MAX_QUESTION_LENGTH = 200;
export const MAX_VARIABLE_VALUE_LENGTH = 2_000;
export const MAX_STUDIO_VARIABLES = 50;
export const MAX_NOTE_LENGTH = 500;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** The allowed ranges the console shows before a save (SPEC 2.3); maxTokens is also bounded by the model. */
export const settingRanges = () => ({
  temperature: Object.fromEntries(PROVIDER_IDS.map((p) => [p, { min: 0, max: maxTemperature(p) }])) as Record<ProviderId, { min: number; max: number }>,
  maxTokens: { min: 1, max: MAX_TOKENS_LIMIT },
  topP: { min: 0, max: 1 },
  frequencyPenalty: { ...PENALTY_RANGE },
  presencePenalty: { ...PENALTY_RANGE },
});

/** A map of variable names to text values, as `variables` in a draft or a debug turn. */
export function variablesField(path: string) {
  return yup.mixed<Record<string, string>>().test('variables', function check(value) {
    if (value === undefined) return true;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return this.createError({ message: `${path} must be an object of names to text` });
    const entries = Object.entries(value);
    if (entries.length > MAX_STUDIO_VARIABLES) return this.createError({ message: `${path} may hold at most ${MAX_STUDIO_VARIABLES} values` });
    for (const [name, v] of entries) {
      if (!VARIABLE_NAME.test(name)) return this.createError({ message: `${path} has a name that is not a placeholder name: letters, digits, _ . - (at most 64)` });
      if (typeof v !== 'string') return this.createError({ message: `${path}.${name} must be text` });
      if (v.length > MAX_VARIABLE_VALUE_LENGTH) return this.createError({ message: `${path}.${name} must be at most ${MAX_VARIABLE_VALUE_LENGTH} characters` });
    }
    return true;
  });
}

const patchSchema = yup.object({
  instructions: yup.string().strict().typeError('instructions must be text').max(MAX_SYSTEM_PROMPT_LENGTH, `instructions must be at most ${MAX_SYSTEM_PROMPT_LENGTH} characters`),
  variables: variablesField('variables'),
  provider: yup.mixed(),
  modelId: yup.mixed(),
  settings: yup.mixed(),
  openingMessage: str().typeError('openingMessage must be text').max(MAX_OPENING_MESSAGE_LENGTH, `openingMessage must be at most ${MAX_OPENING_MESSAGE_LENGTH} characters`),
  retrieval: yup.mixed().nullable(),
  suggestedQuestions: yup
    .array()
    .typeError('suggestedQuestions must be a list of questions')
    .max(MAX_SUGGESTED_QUESTIONS, `suggestedQuestions may hold at most ${MAX_SUGGESTED_QUESTIONS} questions`)
    .of(str().typeError('each suggested question must be text').min(1, 'a suggested question must not be empty').max(MAX_QUESTION_LENGTH, `a suggested question must be at most ${MAX_QUESTION_LENGTH} characters`).required('a suggested question must not be empty')),
});

/**
 * A change to a configuration: the fields given replace the current ones (a new provider without a
 * model takes the provider's default model), then provider, model and settings are validated as a whole
 * by the one settings validator; the settings' missing values take their defaults.
 */
export async function applyConfigPatch(current: StudioConfig, input: unknown, resolve: ModelChoiceResolver = async (...args) => resolveModelSettings(...args)): Promise<StudioConfig> {
  const body = await validate(patchSchema, input);
  if (body.settings !== undefined && body.settings !== null && typeof body.settings === 'object' && Object.hasOwn(body.settings, 'systemPrompt')) {
    throw ValidationError.field('settings.systemPrompt', 'The system prompt is edited as instructions, not as a setting');
  }
  const provider = body.provider ?? current.provider;
  const modelId = body.modelId !== undefined ? body.modelId : provider === current.provider ? current.modelId : undefined;
  const settings = body.settings !== undefined ? body.settings : provider === current.provider && modelId === current.modelId ? current.settings : withoutMaxTokens(current.settings);
  const resolved = await resolve(provider, modelId, settings, { provider: 'provider', model: 'modelId', settings: 'settings' });
  const { systemPrompt: _none, ...studioSettings } = resolved.settings;
  // null: back to the application's retrieval settings.
  const retrieval = body.retrieval === undefined ? current.retrieval : body.retrieval === null ? undefined : await draftRetrieval(body.retrieval);
  return {
    instructions: body.instructions ?? current.instructions,
    variables: body.variables ? { ...body.variables } : current.variables,
    provider: resolved.provider,
    modelId: resolved.model,
    settings: studioSettings,
    openingMessage: body.openingMessage ?? current.openingMessage,
    suggestedQuestions: body.suggestedQuestions ? (body.suggestedQuestions as string[]) : current.suggestedQuestions,
    ...(retrieval ? { retrieval } : {}),
  };
}

/** The draft's retrieval settings, validated as the application's are (errors name `retrieval.<field>`). */
async function draftRetrieval(input: unknown): Promise<RetrievalSettings> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw ValidationError.field('retrieval', 'retrieval must be an object of settings, or null');
  try {
    return await validateDraftRetrieval(input);
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(error.message, (error.details ?? []).map((d) => ({ ...d, path: `retrieval.${d.path}` })));
    }
    throw error;
  }
}

/** Another model may allow fewer tokens: its own default (capped to it) replaces the old maximum. */
const withoutMaxTokens = ({ maxTokens: _drop, ...rest }: StudioSettings): Partial<StudioSettings> => rest;

/**
 * The settings a turn or the published model config runs with: the instructions with every `{{variable}}`
 * filled (`overrides` first, then the configuration's values); a placeholder with no value is a 400 naming it.
 */
export function runSettings(config: StudioConfig, overrides: Record<string, string> = {}): ModelSettings {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.variables)) values[k] = v;
  for (const [k, v] of Object.entries(overrides)) values[k] = v;
  const systemPrompt = config.instructions.trim() === '' ? '' : renderTemplate(config.instructions, values);
  return { ...config.settings, ...(systemPrompt ? { systemPrompt } : {}) };
}

/** The placeholders the instructions use, in order. */
export const variableNames = (config: StudioConfig): string[] => extractVariables(config.instructions);

/** A configuration as first shown: the live one (default model config, else the default template's text). */
export function initialConfig(live: { provider: ProviderId; modelId: string; settings: ModelSettings } | null, templateText: string | null): StudioConfig {
  const resolved = live ? { provider: live.provider, model: live.modelId, settings: live.settings } : resolveModelSettings('provider_a', undefined, {});
  const { systemPrompt, ...settings } = resolved.settings;
  return {
    instructions: systemPrompt ?? templateText ?? '',
    variables: {},
    provider: resolved.provider,
    modelId: resolved.model,
    settings,
    openingMessage: '',
    suggestedQuestions: [],
  };
}

/** The fields compared side by side, in the order a person reads them. */
export const DIFF_FIELDS: Array<{ field: string; label: string; read: (c: StudioConfig) => string }> = [
  { field: 'instructions', label: 'Instructions', read: (c) => c.instructions },
  { field: 'variables', label: 'Variable values', read: (c) => Object.entries(c.variables).map(([k, v]) => `${k} = ${v}`).join('\n') },
  { field: 'provider', label: 'Provider', read: (c) => c.provider },
  { field: 'modelId', label: 'Model', read: (c) => c.modelId },
  { field: 'temperature', label: 'Temperature', read: (c) => String(c.settings.temperature) },
  { field: 'maxTokens', label: 'Max tokens', read: (c) => String(c.settings.maxTokens) },
  { field: 'topP', label: 'Top P', read: (c) => String(c.settings.topP) },
  { field: 'frequencyPenalty', label: 'Frequency penalty', read: (c) => (c.settings.frequencyPenalty === undefined ? '' : String(c.settings.frequencyPenalty)) },
  { field: 'presencePenalty', label: 'Presence penalty', read: (c) => (c.settings.presencePenalty === undefined ? '' : String(c.settings.presencePenalty)) },
  { field: 'openingMessage', label: 'Opening message', read: (c) => c.openingMessage },
  { field: 'suggestedQuestions', label: 'Suggested questions', read: (c) => c.suggestedQuestions.join('\n') },
  {
    field: 'retrieval',
    label: 'Knowledge retrieval',
    read: (c) => (c.retrieval ? `mode ${c.retrieval.mode ?? 'the application’s'}, top ${c.retrieval.topK}, lowest score ${c.retrieval.scoreThreshold ?? 'built in'}, reranker ${c.retrieval.rerank ? 'on' : 'off'}` : 'the application’s settings'),
  },
];

export interface FieldDiff {
  field: string;
  label: string;
  from: string;
  to: string;
  changed: boolean;
}

/** Every field of two configurations side by side, each marked changed or not. */
export const diffConfigs = (from: StudioConfig, to: StudioConfig): FieldDiff[] =>
  DIFF_FIELDS.map(({ field, label, read }) => {
    const a = read(from);
    const b = read(to);
    return { field, label, from: a, to: b, changed: a !== b };
  });

/** A stored configuration read back (older snapshots may miss fields added later). */
export function readStoredConfig(raw: unknown): StudioConfig {
  const c = (raw ?? {}) as Partial<StudioConfig>;
  return {
    instructions: c.instructions ?? '',
    variables: c.variables ?? {},
    provider: c.provider ?? 'provider_a',
    modelId: c.modelId ?? '',
    settings: c.settings ?? { temperature: 0.7, maxTokens: 2048, topP: 1 },
    openingMessage: c.openingMessage ?? '',
    suggestedQuestions: c.suggestedQuestions ?? [],
    ...(c.retrieval ? { retrieval: c.retrieval } : {}),
  };
}
