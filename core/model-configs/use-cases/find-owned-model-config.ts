import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { ConfigVersion } from '../domain/config-version';
import type { ModelConfig } from '../domain/model-config';
import type { ConfigVersionRepository } from '../ports/config-version-repository.port';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';

/** The caller's model config, or a 404 that does not tell "not yours" from "does not exist". */
export async function findOwnedModelConfig(configs: ModelConfigRepository, id: unknown, actor: Actor): Promise<ModelConfig> {
  const found = isUuid(id) ? await configs.findWithOwner(id) : null;
  if (!found || found.ownerId !== actor.userId) throw new NotFoundError('Model config');
  return found.config;
}

/** A version of one of the caller's configs, addressed through its config. */
export async function findOwnedVersion(
  deps: { configs: ModelConfigRepository; versions: ConfigVersionRepository },
  configId: unknown,
  versionId: unknown,
  actor: Actor,
): Promise<{ config: ModelConfig; version: ConfigVersion }> {
  const config = await findOwnedModelConfig(deps.configs, configId, actor);
  const version = isUuid(versionId) ? await deps.versions.findById(versionId) : null;
  if (!version || version.configId !== config.id) throw new NotFoundError('Model config version');
  return { config, version };
}
