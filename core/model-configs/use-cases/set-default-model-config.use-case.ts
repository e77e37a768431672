import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { toModelConfigView, type ModelConfigView } from '../domain/model-config';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';
import { findOwnedModelConfig } from './find-owned-model-config';

/** Makes the config its application's default; the previous default is unset (SPEC 3). */
export class SetDefaultModelConfigUseCase {
  constructor(private readonly deps: { configs: ModelConfigRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<ModelConfigView> {
    const config = await findOwnedModelConfig(this.deps.configs, id, actor, 'write', this.deps.teams ?? null);
    return toModelConfigView(await this.deps.configs.setDefault(config.id));
  }
}
