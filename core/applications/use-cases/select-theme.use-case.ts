import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { str, validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

const schema = yup.object({
  themeId: str()
    .required('themeId is required')
    .matches(/^[\w-]{1,100}$/, 'themeId must be a preset name or theme identifier'),
});

/** Chooses the application's theme (a preset name or a theme id). */
export class SelectThemeUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor);
    const { themeId } = await validate(schema, input);
    return toApplicationView(await this.deps.applications.update(app.id, { themeId }));
  }
}
