import type { TeamRoleLookup } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { toPromptTemplateView, type PromptTemplateView } from '../domain/prompt-template';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';
import { findOwnedTemplate } from './find-owned-template';

/** One of the caller's prompt templates. */
export class GetPromptTemplateUseCase {
  constructor(private readonly deps: { templates: PromptTemplateRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, actor: Actor): Promise<PromptTemplateView> {
    return toPromptTemplateView(await findOwnedTemplate(this.deps.templates, id, actor, 'read', this.deps.teams ?? null));
  }
}
