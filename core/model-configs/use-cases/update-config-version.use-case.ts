import * as yup from 'yup';
import { modelChoiceResolver, resolveChoicePatch } from '../../connections/use-cases/model-choice';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import { isActiveField, labelField, rawField, SETTINGS_PATHS, trafficPercentField, versionNameField } from '../domain/config-fields';
import type { ConfigVersionView } from '../domain/config-version';
import { toHundredths } from '../domain/traffic';
import type { ConfigVersionChanges } from '../ports/config-version-repository.port';
import { findOwnedVersion } from './find-owned-model-config';
import { versionViews, type VersionDeps } from './list-config-versions.use-case';

const schema = yup.object({
  applicationId: idField(),
  version: versionNameField(),
  label: labelField(),
  provider: rawField(),
  modelId: rawField(),
  settings: rawField(),
  trafficPercent: trafficPercentField(),
  isActive: isActiveField(),
});

/** Partial update of a version: traffic share, activity, label, model and settings (checked again). */
export class UpdateConfigVersionUseCase {
  constructor(private readonly deps: VersionDeps) {}

  async execute(configId: string, versionId: string, input: unknown, actor: Actor): Promise<ConfigVersionView> {
    const { config, version } = await findOwnedVersion(this.deps, configId, versionId, actor, 'write');
    const body = await validate(schema, input);
    if (body.applicationId !== undefined && body.applicationId !== config.applicationId) {
      throw ValidationError.field('applicationId', "applicationId must be the config's application");
    }
    const changes: ConfigVersionChanges = {};
    if (body.version !== undefined) changes.version = body.version;
    if (body.label !== undefined) changes.label = body.label;
    if (body.trafficPercent !== undefined) changes.trafficShare = toHundredths(body.trafficPercent);
    if (body.isActive !== undefined) changes.isActive = body.isActive;
    if (body.provider !== undefined || body.modelId !== undefined || body.settings !== undefined) {
      const provider = body.provider ?? version.provider;
      const modelId = body.modelId ?? (provider === version.provider ? version.modelId : undefined);
      const owner = async () => {
        const found = await this.deps.configs.findWithOwner(config.id);
        return found ? { ownerId: found.ownerId, teamId: found.teamId ?? null } : null;
      };
      const resolved = await resolveChoicePatch(modelChoiceResolver(this.deps.connections, owner), provider, modelId, version.settings, body.settings, SETTINGS_PATHS);
      Object.assign(changes, { provider: resolved.provider, modelId: resolved.model, settings: resolved.settings });
    }
    const updated = Object.keys(changes).length ? await this.deps.versions.update(version.id, changes) : version;
    return (await versionViews(this.deps.ratings, [updated]))[0]!;
  }
}
