import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';
import { findOwnedTemplate } from './find-owned-template';

/** Deletes one of the caller's templates; if it was the default, the application has none afterwards. */
export class DeletePromptTemplateUseCase {
  constructor(private readonly deps: { templates: PromptTemplateRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const template = await findOwnedTemplate(this.deps.templates, id, actor, 'write', this.deps.teams ?? null);
    await this.deps.templates.delete(template.id);
  }
}
