import type { TeamRoleLookup } from '../../access/access-policy';
import * as yup from 'yup';
import { modelChoiceResolver, resolveChoicePatch, type ConnectionFinder } from '../../connections/use-cases/model-choice';
import type { Actor } from '../../shared/actor';
import { ConflictError, ValidationError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import { configNameField, isDefaultField, rawField, SETTINGS_PATHS } from '../domain/config-fields';
import { toModelConfigView, type ModelConfigView } from '../domain/model-config';
import type { ModelConfigChanges, ModelConfigRepository } from '../ports/model-config-repository.port';
import { findOwnedModelConfig } from './find-owned-model-config';

const schema = yup.object({
  applicationId: idField(),
  name: configNameField('name'),
  displayName: configNameField('displayName'),
  provider: rawField(),
  modelId: rawField(),
  settings: rawField(),
  isDefault: isDefaultField(),
});

/**
 * Partial update (SPEC 4.5). Settings sent are merged over the stored ones and the result is checked
 * again against the (possibly new) provider and model; a new provider without a model takes its default.
 */
export class UpdateModelConfigUseCase {
  constructor(private readonly deps: { configs: ModelConfigRepository; teams?: TeamRoleLookup; connections?: ConnectionFinder }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ModelConfigView> {
    const config = await findOwnedModelConfig(this.deps.configs, id, actor, 'write', this.deps.teams ?? null);
    const body = await validate(schema, input);
    if (body.applicationId !== undefined && body.applicationId !== config.applicationId) {
      throw ValidationError.field('applicationId', 'A model config cannot move to another application');
    }
    if (body.isDefault === false && config.isDefault) {
      throw new ConflictError('This is the default config; make another config the default instead');
    }
    const changes: ModelConfigChanges = {};
    const name = body.name ?? body.displayName;
    if (name !== undefined) changes.name = name;
    if (body.provider !== undefined || body.modelId !== undefined || body.settings !== undefined) {
      const provider = body.provider ?? config.provider;
      const providerChanged = provider !== config.provider;
      const modelId = body.modelId ?? (providerChanged ? undefined : config.modelId);
      const owner = async () => {
        const found = await this.deps.configs.findWithOwner(config.id);
        return found ? { ownerId: found.ownerId, teamId: found.teamId ?? null } : null;
      };
      const resolved = await resolveChoicePatch(modelChoiceResolver(this.deps.connections, owner), provider, modelId, config.settings, body.settings, SETTINGS_PATHS);
      Object.assign(changes, { provider: resolved.provider, modelId: resolved.model, settings: resolved.settings });
    }
    let updated = Object.keys(changes).length ? await this.deps.configs.update(config.id, changes) : config;
    if (body.isDefault === true && !updated.isDefault) updated = await this.deps.configs.setDefault(config.id);
    return toModelConfigView(updated);
  }
}
