import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { idField, validate } from '../../shared/validation';
import { extractVariables } from '../domain/placeholders';
import { toPromptTemplateView, type PromptTemplateView } from '../domain/prompt-template';
import { templateContentField, templateDefaultField, templateNameField } from '../domain/template-fields';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';

const schema = yup.object({
  applicationId: idField().required('applicationId is required'),
  name: templateNameField().required('name is required'),
  content: templateContentField().required('content is required'),
  isDefault: templateDefaultField(),
});

/** Creates a prompt template in one of the caller's applications; its variables come from its placeholders. */
export class CreatePromptTemplateUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; templates: PromptTemplateRepository }) {}

  async execute(input: unknown, actor: Actor): Promise<PromptTemplateView> {
    const body = await validate(schema, input);
    const application = await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'write');
    const template = await this.deps.templates.create({
      applicationId: application.id,
      name: body.name,
      content: body.content,
      variables: extractVariables(body.content),
      makeDefault: body.isDefault === true,
    });
    return toPromptTemplateView(template);
  }
}
