import * as yup from 'yup';
import { modelChoiceResolver, resolveChoicePatch } from '../../connections/use-cases/model-choice';
import { isProviderId } from '../../ai/domain/provider-id';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import { isActiveField, labelField, rawField, SETTINGS_PATHS, trafficPercentField, versionNameField } from '../domain/config-fields';
import type { ConfigVersionView } from '../domain/config-version';
import { toHundredths } from '../domain/traffic';
import { inheritedSettings } from '../domain/version-settings';
import { findOwnedModelConfig } from './find-owned-model-config';
import { versionViews, type VersionDeps } from './list-config-versions.use-case';

const schema = yup.object({
  applicationId: idField(),
  version: versionNameField(),
  label: labelField().required('label is required'),
  provider: rawField(),
  modelId: rawField(),
  settings: rawField(),
  trafficPercent: trafficPercentField(),
  isActive: isActiveField(),
});

/**
 * Adds an A/B version to one of the caller's configs (SPEC 2.4, 4.5). Provider and model default to
 * the config's, settings start from the config's where they fit; active versions share at most 100%.
 */
export class CreateConfigVersionUseCase {
  constructor(private readonly deps: VersionDeps) {}

  async execute(configId: string, input: unknown, actor: Actor): Promise<ConfigVersionView> {
    const config = await findOwnedModelConfig(this.deps.configs, configId, actor, 'write', this.deps.teams ?? null);
    const body = await validate(schema, input);
    if (body.applicationId !== undefined && body.applicationId !== config.applicationId) {
      throw ValidationError.field('applicationId', "applicationId must be the config's application");
    }
    const provider = body.provider ?? config.provider;
    const modelId = body.modelId ?? (provider === config.provider ? config.modelId : undefined);
    // An invalid provider or model is reported by the validator below; nothing is inherited for it.
    const base = isProviderId(provider) ? inheritedSettings(config, provider, typeof modelId === 'string' ? modelId.trim() : '') : {};
    const owner = async () => {
        const found = await this.deps.configs.findWithOwner(config.id);
        return found ? { ownerId: found.ownerId, teamId: found.teamId ?? null } : null;
      };
    const resolved = await resolveChoicePatch(modelChoiceResolver(this.deps.connections, owner), provider, modelId, base, body.settings, SETTINGS_PATHS);
    const version = await this.deps.versions.create({
      configId: config.id,
      applicationId: config.applicationId,
      version: body.version,
      label: body.label,
      provider: resolved.provider,
      modelId: resolved.model,
      settings: resolved.settings,
      trafficShare: toHundredths(body.trafficPercent ?? 0),
      isActive: body.isActive ?? true,
    });
    return (await versionViews(this.deps.ratings, [version]))[0]!;
  }
}
