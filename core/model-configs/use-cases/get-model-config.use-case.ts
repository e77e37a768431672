import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { toModelConfigView, type ModelConfigView } from '../domain/model-config';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';
import { findOwnedModelConfig } from './find-owned-model-config';

/** One of the caller's model configs. */
export class GetModelConfigUseCase {
  constructor(private readonly deps: { configs: ModelConfigRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<ModelConfigView> {
    return toModelConfigView(await findOwnedModelConfig(this.deps.configs, id, actor, 'read', this.deps.teams ?? null));
  }
}
