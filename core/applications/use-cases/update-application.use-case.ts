import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { bool, validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView } from '../domain/application';
import { allowedOriginsField, descriptionField, nameField, slugField } from '../domain/application-fields';
import type { ApplicationChanges, ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

const schema = yup.object({
  name: nameField(),
  description: descriptionField(),
  slug: slugField(),
  allowedOrigins: allowedOriginsField(),
  hostedPage: yup.object({ enabled: bool() }).default(undefined),
});

/** Partial update of name, description, slug (still unique), allowed origins and the hosted chat page switch. */
export class UpdateApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'manage');
    const { hostedPage, ...changes } = await validate(schema, input);
    const defined: ApplicationChanges = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (hostedPage?.enabled !== undefined) defined.hostedPageEnabled = hostedPage.enabled;
    return toApplicationView(await this.deps.applications.update(app.id, defined));
  }
}
