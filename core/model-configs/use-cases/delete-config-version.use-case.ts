import type { Actor } from '../../shared/actor';
import type { VersionDeps } from './list-config-versions.use-case';
import { findOwnedVersion } from './find-owned-model-config';

/**
 * Deletes a version. Its traffic share goes to the config's other active versions in proportion to
 * their shares (sum preserved to 0.01%); with none left it returns to the parent config.
 */
export class DeleteConfigVersionUseCase {
  constructor(private readonly deps: VersionDeps) {}

  async execute(configId: string, versionId: string, actor: Actor): Promise<void> {
    const { version } = await findOwnedVersion(this.deps, configId, versionId, actor, 'write');
    await this.deps.versions.delete(version.id);
  }
}
