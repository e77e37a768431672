import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { bool, validate } from '../../shared/validation';
import { SEARCH_MODES, type SearchMode } from '../../knowledge/domain/hybrid-ranking';
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
  retrieval: yup.object({ mode: yup.string().oneOf([...SEARCH_MODES], `retrieval.mode must be one of ${SEARCH_MODES.join(', ')}`) }).default(undefined),
});

/** Partial update of name, description, slug (still unique), allowed origins, the hosted chat page switch and the knowledge retrieval mode. */
export class UpdateApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'manage');
    const { hostedPage, retrieval, ...changes } = await validate(schema, input);
    const defined: ApplicationChanges = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (hostedPage?.enabled !== undefined) defined.hostedPageEnabled = hostedPage.enabled;
    if (retrieval?.mode !== undefined) defined.retrievalMode = retrieval.mode as SearchMode;
    return toApplicationView(await this.deps.applications.update(app.id, defined));
  }
}
