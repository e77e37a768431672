import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { toPromptTemplateView, type PromptTemplateView } from '../domain/prompt-template';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';
import { findOwnedTemplate } from './find-owned-template';

/** Makes the template its application's default (the previous default is unset). */
export class SetDefaultPromptTemplateUseCase {
  constructor(private readonly deps: { templates: PromptTemplateRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<PromptTemplateView> {
    const template = await findOwnedTemplate(this.deps.templates, id, actor, 'write', this.deps.teams ?? null);
    return toPromptTemplateView(await this.deps.templates.setDefault(template.id, true));
  }
}
