import { ValidationError, type ErrorDetail } from '../../shared/errors';
import type { ModelSettings } from '../ports/llm-provider.port';
import { acceptsAnyModel, defaultModel, findModel, listCatalogModels, OPEN_MODEL_LIMITS, type CatalogModel } from './model-catalog';
import { isProviderId, PROVIDER_IDS, type ProviderId } from './provider-id';
import { CONNECTION_KIND_SPEAKS, type ConnectionKind } from '../../connections/domain/connection';
import { validateResiliencePolicy, type ResiliencePolicy } from './resilience';

/** SPEC 2.3 ranges and defaults. */
export const SETTINGS_DEFAULTS = { temperature: 0.7, maxTokens: 2048, topP: 1.0 } as const;
export const MAX_TOKENS_LIMIT = 128_000;
export const PENALTY_RANGE = { min: -2, max: 2 } as const;
/** Long enough for a detailed persona with examples; short enough that it cannot crowd out the conversation. */
export const MAX_SYSTEM_PROMPT_LENGTH = 20_000;

/** provider_c takes temperatures up to 1.0, the others up to 2.0. */
export function maxTemperature(provider: ProviderId): number {
  return provider === 'provider_c' ? 1 : 2;
}

export interface ResolvedModelSettings {
  provider: ProviderId;
  model: string;
  settings: ModelSettings;
}

/** Field names used in error details; model configs call the model `modelId`. */
export interface SettingsPaths {
  provider?: string;
  model?: string;
  settings?: string;
}

/**
 * The one validator of provider, model and settings (SPEC 2.3). A missing model means the provider's
 * default; missing settings take their defaults, maxTokens capped to the model's maximum. Throws a
 * ValidationError whose details name each offending field (`settings.temperature`, ...).
 */
export function resolveModelSettings(provider: unknown, modelId: unknown, raw: unknown, paths: SettingsPaths = {}): ResolvedModelSettings {
  const p = { provider: paths.provider ?? 'provider', model: paths.model ?? 'model', settings: paths.settings ?? 'settings' };
  if (!isProviderId(provider)) {
    throw ValidationError.field(p.provider, `${p.provider} must be one of ${PROVIDER_IDS.join(', ')}`);
  }
  const model = resolveModel(provider, modelId, p.model);
  const settings = validateSettings(provider, model, raw, p.settings);
  return { provider, model: model.id, settings };
}

/**
 * Provider, model and settings of a turn on an owner's connection (docs/connections.md): the model must be
 * one the connection lists (any printable id when it lists none); the settings follow the OpenAI ranges,
 * maxTokens bounded by the open-model limit since the endpoint's own is not known.
 */
export function resolveConnectionSettings(
  connection: { name: string; models: string[]; kind?: string },
  modelId: unknown,
  raw: unknown,
  paths: SettingsPaths = {},
): { provider: string; model: string; settings: ModelSettings } {
  const modelPath = paths.model ?? 'model';
  const id = typeof modelId === 'string' ? modelId.trim() : modelId === undefined || modelId === null ? connection.models[0] : undefined;
  if (typeof id !== 'string' || id === '' || id.length > 200 || !/^[\x20-\x7e]+$/.test(id)) {
    throw ValidationError.field(modelPath, `${modelPath} must name one of the models of the connection ${connection.name}`);
  }
  if (connection.models.length && !connection.models.includes(id)) {
    throw ValidationError.field(modelPath, `${modelPath} must be one of the models of the connection ${connection.name}; discover its models again if it serves a new one`);
  }
  const model: CatalogModel = { id, maxOutputTokens: OPEN_MODEL_LIMITS.maxOutputTokens, contextWindow: OPEN_MODEL_LIMITS.contextWindow };
  // The settings rules of the API the connection speaks (its temperature range).
  const speaks = CONNECTION_KIND_SPEAKS[connection.kind as ConnectionKind] ?? 'provider_a';
  return { provider: connection.name, model: id, settings: validateSettings(speaks, model, raw, paths.settings ?? 'settings') };
}

/**
 * Partial update of stored settings: the patch's fields replace the current ones (`null` clears an
 * optional field), then the result is validated as a whole against the (possibly new) provider and model.
 */
export function validateSettingsPatch(
  provider: unknown,
  modelId: unknown,
  current: Partial<ModelSettings> | undefined,
  patch: unknown,
  paths: SettingsPaths = {},
): ResolvedModelSettings {
  return resolveModelSettings(provider, modelId, mergeSettings(current ?? {}, patch, paths.settings ?? 'settings'), paths);
}

/** The patch's fields over the current settings (`null` clears one); exported for the connections' validator. */
export function mergeSettings(current: Partial<ModelSettings>, patch: unknown, path: string): Record<string, unknown> {
  if (patch === undefined || patch === null) return { ...current };
  if (typeof patch !== 'object' || Array.isArray(patch)) throw ValidationError.field(path, `${path} must be an object`);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged;
}

function resolveModel(provider: ProviderId, modelId: unknown, path: string): CatalogModel {
  if (modelId === undefined || modelId === null) return findModel(provider, defaultModel(provider))!;
  if (typeof modelId !== 'string' || modelId.trim() === '') throw ValidationError.field(path, `${path} must be a non-empty string`);
  const found = findModel(provider, modelId.trim());
  if (found) return found;
  const message = acceptsAnyModel(provider)
    ? `${path} must be a model id of the form organization/model for ${provider}`
    : `${path} must be one of the ${provider} models: ${listCatalogModels(provider)
        .map((m) => m.id)
        .join(', ')}`;
  throw ValidationError.field(path, message);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

function validateSettings(provider: ProviderId, model: CatalogModel, raw: unknown, path: string): ModelSettings {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw ValidationError.field(path, `${path} must be an object`);
  const input = raw as Record<string, unknown>;
  const errors: ErrorDetail[] = [];
  const fail = (field: string, message: string) => errors.push({ path: `${path}.${field}`, message: `${path}.${field} ${message}` });

  const range = (field: string, min: number, max: number, note = ''): number | undefined => {
    const value = input[field];
    if (!isSet(value)) return undefined;
    if (!isNumber(value) || value < min || value > max) {
      fail(field, `must be a number between ${min} and ${max}${note}`);
      return undefined;
    }
    return value;
  };

  const temperature = range('temperature', 0, maxTemperature(provider), provider === 'provider_c' ? ` for ${provider}` : '');
  const topP = range('topP', 0, 1);
  const frequencyPenalty = range('frequencyPenalty', PENALTY_RANGE.min, PENALTY_RANGE.max);
  const presencePenalty = range('presencePenalty', PENALTY_RANGE.min, PENALTY_RANGE.max);

  const modelMax = Math.min(MAX_TOKENS_LIMIT, model.maxOutputTokens);
  let maxTokens: number | undefined;
  if (isSet(input.maxTokens)) {
    const value = input.maxTokens;
    if (!isNumber(value) || !Number.isInteger(value) || value < 1 || value > MAX_TOKENS_LIMIT) {
      fail('maxTokens', `must be an integer between 1 and ${MAX_TOKENS_LIMIT}`);
    } else if (value > modelMax) {
      fail('maxTokens', `must be at most ${modelMax}, the maximum output of ${model.id}`);
    } else {
      maxTokens = value;
    }
  }

  let systemPrompt: string | undefined;
  if (isSet(input.systemPrompt)) {
    const value = input.systemPrompt;
    if (typeof value !== 'string') fail('systemPrompt', 'must be a string');
    else if (value.length > MAX_SYSTEM_PROMPT_LENGTH) fail('systemPrompt', `must be at most ${MAX_SYSTEM_PROMPT_LENGTH} characters`);
    else if (value.trim() !== '') systemPrompt = value;
  }

  let resilience: ResiliencePolicy | undefined;
  try {
    resilience = validateResiliencePolicy(input.resilience, `${path}.resilience`);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    errors.push(...(error.details ?? [{ path: `${path}.resilience`, message: error.message }]));
  }

  if (errors.length) throw new ValidationError(errors.map((e) => e.message).join('; '), errors);

  const settings: ModelSettings = {
    temperature: temperature ?? SETTINGS_DEFAULTS.temperature,
    maxTokens: maxTokens ?? Math.min(SETTINGS_DEFAULTS.maxTokens, modelMax),
    topP: topP ?? SETTINGS_DEFAULTS.topP,
  };
  if (frequencyPenalty !== undefined) settings.frequencyPenalty = frequencyPenalty;
  if (presencePenalty !== undefined) settings.presencePenalty = presencePenalty;
  if (systemPrompt !== undefined) settings.systemPrompt = systemPrompt;
  if (resilience !== undefined) settings.resilience = resilience;
  return settings;
}
