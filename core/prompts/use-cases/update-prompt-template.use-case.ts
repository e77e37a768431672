import type { TeamRoleLookup } from '../../access/access-policy';
import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import { extractVariables } from '../domain/placeholders';
import { toPromptTemplateView, type PromptTemplateView } from '../domain/prompt-template';
import { templateContentField, templateDefaultField, templateNameField } from '../domain/template-fields';
import type { PromptTemplateChanges, PromptTemplateRepository } from '../ports/prompt-template-repository.port';
import { findOwnedTemplate } from './find-owned-template';

const schema = yup.object({
  applicationId: idField(),
  name: templateNameField(),
  content: templateContentField(),
  isDefault: templateDefaultField(),
});

/** Partial update of name and content (variables follow the content) and of the default flag. */
export class UpdatePromptTemplateUseCase {
  constructor(private readonly deps: { templates: PromptTemplateRepository; teams?: TeamRoleLookup }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<PromptTemplateView> {
    const template = await findOwnedTemplate(this.deps.templates, id, actor, 'write', this.deps.teams ?? null);
    const body = await validate(schema, input);
    if (body.applicationId !== undefined && body.applicationId !== template.applicationId) {
      throw ValidationError.field('applicationId', 'A template cannot move to another application');
    }
    const changes: PromptTemplateChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.content !== undefined) Object.assign(changes, { content: body.content, variables: extractVariables(body.content) });
    let updated = Object.keys(changes).length ? await this.deps.templates.update(template.id, changes) : template;
    if (body.isDefault !== undefined && body.isDefault !== updated.isDefault) {
      updated = await this.deps.templates.setDefault(template.id, body.isDefault);
    }
    return toPromptTemplateView(updated);
  }
}
