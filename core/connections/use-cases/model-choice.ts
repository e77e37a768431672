import { mergeSettings, resolveConnectionSettings, resolveModelSettings, type ResolvedModelSettings, type SettingsPaths } from '../../ai/domain/model-settings';
import { isProviderId, PROVIDER_IDS } from '../../ai/domain/provider-id';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import { ValidationError } from '../../shared/errors';
import type { ConnectionRepository, ConnectionUser } from '../ports/connection-repository.port';

export type ConnectionFinder = Pick<ConnectionRepository, 'findByName'>;

/** Validates a provider, model and settings that may name a connection instead of a built-in provider. */
export type ModelChoiceResolver = (provider: unknown, modelId: unknown, raw: unknown, paths?: SettingsPaths) => Promise<ResolvedModelSettings>;

/**
 * The validator of what a model config, A/B version or studio draft saves (docs/connections.md): a built-in
 * provider id as before, or the name of one of the connections of the application's team or owner (whose
 * connections its turns run on, whoever on the team edits it) with one of that connection's models. Any other name is a
 * 400 on the provider field. `ownerId` is looked up only when a connection is named.
 */
export function modelChoiceResolver(connections: ConnectionFinder | null | undefined, ownerId: ConnectionUser | (() => Promise<ConnectionUser | null>)): ModelChoiceResolver {
  return async (provider, modelId, raw, paths = {}) => {
    if (isProviderId(provider) || !connections) return resolveModelSettings(provider, modelId, raw, paths);
    const path = paths.provider ?? 'provider';
    const owner = typeof provider === 'string' && provider.length > 0 && provider.length <= 40 ? (typeof ownerId === 'function' ? await ownerId() : ownerId) : null;
    const found = owner ? await connections.findByName(owner, provider as string) : null;
    if (!found) throw ValidationError.field(path, `${path} must be one of ${PROVIDER_IDS.join(', ')} or the name of one of the connections of the application's owner`);
    // The stored provider is the connection's name; the chat's connection policy opens it per turn.
    return resolveConnectionSettings(found, modelId, raw, paths) as ResolvedModelSettings;
  };
}

/** Like `validateSettingsPatch`: the patch's fields replace the current settings, then the whole is checked. */
export function resolveChoicePatch(
  resolve: ModelChoiceResolver,
  provider: unknown,
  modelId: unknown,
  current: Partial<ModelSettings> | undefined,
  patch: unknown,
  paths: SettingsPaths = {},
): Promise<ResolvedModelSettings> {
  return resolve(provider, modelId, mergeSettings(current ?? {}, patch, paths.settings ?? 'settings'), paths);
}
