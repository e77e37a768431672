import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { PromptTemplate } from '../domain/prompt-template';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';

/** The caller's template, or a 404 that does not tell "not yours" from "does not exist". */
export async function findOwnedTemplate(templates: PromptTemplateRepository, id: unknown, actor: Actor): Promise<PromptTemplate> {
  const found = isUuid(id) ? await templates.findWithOwner(id) : null;
  if (!found || found.ownerId !== actor.userId) throw new NotFoundError('Prompt template');
  return found.template;
}
