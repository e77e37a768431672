import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView } from '../domain/application';
import { allowedOriginsField, descriptionField, nameField, slugField } from '../domain/application-fields';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

const schema = yup.object({
  name: nameField(),
  description: descriptionField(),
  slug: slugField(),
  allowedOrigins: allowedOriginsField(),
});

/** Partial update of name, description, slug (still unique) and allowed origins. */
export class UpdateApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor);
    const changes = await validate(schema, input);
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    return toApplicationView(await this.deps.applications.update(app.id, defined));
  }
}
