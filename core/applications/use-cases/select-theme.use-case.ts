import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { ThemeCatalog } from '../../themes/use-cases/theme-catalog';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

const schema = yup.object({
  themeId: str()
    .required('themeId is required')
    .matches(/^[\w-]{1,100}$/, 'themeId must be a preset name or theme identifier'),
});

/** Chooses the application's theme: a preset, one of the owner's themes or a published one (else 404). */
export class SelectThemeUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; catalog: ThemeCatalog }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'manage');
    const { themeId } = await validate(schema, input);
    const theme = await this.deps.catalog.find(themeId, app.ownerId);
    if (!theme) throw new NotFoundError('Theme');
    return toApplicationView(await this.deps.applications.update(app.id, { themeId: theme.id }));
  }
}
