import { authorize, type TeamRoleLookup } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { ConfigVersion } from '../domain/config-version';
import type { ModelConfig } from '../domain/model-config';
import type { ConfigVersionRepository } from '../ports/config-version-repository.port';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';

/**
 * The model config if the caller may perform `action` on its application (core/access decides; the
 * strictest action by default); one they may not see is a 404 that does not tell "not yours" from
 * "does not exist". `teams` answers team roles; without it only the application's owner passes.
 */
export async function findOwnedModelConfig(
  configs: ModelConfigRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
  teams: TeamRoleLookup | null = null,
): Promise<ModelConfig> {
  const found = isUuid(id) ? await configs.findWithOwner(id) : null;
  await authorize(found, actor, action, 'Model config', teams);
  return found!.config;
}

/** A version of one of the caller's configs, addressed through its config. */
export async function findOwnedVersion(
  deps: { configs: ModelConfigRepository; versions: ConfigVersionRepository; teams?: TeamRoleLookup },
  configId: unknown,
  versionId: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
): Promise<{ config: ModelConfig; version: ConfigVersion }> {
  const config = await findOwnedModelConfig(deps.configs, configId, actor, action, deps.teams ?? null);
  const version = isUuid(versionId) ? await deps.versions.findById(versionId) : null;
  if (!version || version.configId !== config.id) throw new NotFoundError('Model config version');
  return { config, version };
}
