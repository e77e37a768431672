import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError } from '../../shared/errors';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';
import { findOwnedModelConfig } from './find-owned-model-config';

/** Deletes a config and its versions. The default cannot go (409) until another config is the default. */
export class DeleteModelConfigUseCase {
  constructor(private readonly deps: { configs: ModelConfigRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const config = await findOwnedModelConfig(this.deps.configs, id, actor, 'write', this.deps.teams ?? null);
    const result = await this.deps.configs.delete(config.id);
    if (result === 'default') {
      throw new ConflictError('The default model config cannot be deleted; make another config the default first');
    }
    if (result === 'missing') throw new NotFoundError('Model config');
  }
}
