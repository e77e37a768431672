import { authorize, type TeamRoleLookup } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { isUuid } from '../../shared/ids';
import type { PromptTemplate } from '../domain/prompt-template';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';

/**
 * The template if the caller may perform `action` on its application (core/access decides; the
 * strictest action by default), or a 404 that does not tell "not yours" from "does not exist".
 */
export async function findOwnedTemplate(
  templates: PromptTemplateRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
  teams: TeamRoleLookup | null = null,
): Promise<PromptTemplate> {
  const found = isUuid(id) ? await templates.findWithOwner(id) : null;
  await authorize(found, actor, action, 'Prompt template', teams);
  return found!.template;
}
