import type { ConnectionFinder } from '../../connections/use-cases/model-choice';
import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { toConfigVersionView, type ConfigVersion, type ConfigVersionView } from '../domain/config-version';
import type { ConfigVersionRepository } from '../ports/config-version-repository.port';
import type { MessageRatingRepository } from '../ports/message-rating-repository.port';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';
import { findOwnedModelConfig } from './find-owned-model-config';

export type VersionDeps = { configs: ModelConfigRepository; versions: ConfigVersionRepository; ratings: MessageRatingRepository; teams?: TeamRoleLookup; connections?: ConnectionFinder };

/** Versions as the API shows them, with the average rating of their answers. */
export async function versionViews(ratings: MessageRatingRepository, versions: ConfigVersion[]): Promise<ConfigVersionView[]> {
  const averages = versions.length ? await ratings.averageByVersion(versions.map((v) => v.id)) : new Map<string, number>();
  return versions.map((v) => toConfigVersionView(v, averages.get(v.id) ?? null));
}

/** The A/B versions of one of the caller's configs, with their metrics (SPEC 2.4). */
export class ListConfigVersionsUseCase {
  constructor(private readonly deps: VersionDeps) {}

  async execute(configId: string, actor: Actor): Promise<ConfigVersionView[]> {
    const config = await findOwnedModelConfig(this.deps.configs, configId, actor, 'read', this.deps.teams ?? null);
    return versionViews(this.deps.ratings, await this.deps.versions.listByConfig(config.id));
  }
}
