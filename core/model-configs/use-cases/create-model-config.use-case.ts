import * as yup from 'yup';
import { modelChoiceResolver, type ConnectionFinder } from '../../connections/use-cases/model-choice';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import { configNameField, isDefaultField, rawField, SETTINGS_PATHS } from '../domain/config-fields';
import { toModelConfigView, type ModelConfigView } from '../domain/model-config';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';

const schema = yup.object({
  applicationId: idField().required('applicationId is required'),
  name: configNameField('name'),
  displayName: configNameField('displayName'),
  provider: rawField(),
  modelId: rawField(),
  settings: rawField(),
  isDefault: isDefaultField(),
});

/**
 * Creates a model config (SPEC 4.5) for one of the caller's applications. The name comes from `name`
 * or `displayName`; the application's first config becomes its default.
 */
export class CreateModelConfigUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; configs: ModelConfigRepository; connections?: ConnectionFinder }) {}

  async execute(input: unknown, actor: Actor): Promise<ModelConfigView> {
    const body = await validate(schema, input);
    const name = body.name ?? body.displayName;
    if (!name) throw ValidationError.field('name', 'name (or displayName) is required');
    const application = await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'write');
    const { provider, model, settings } = await modelChoiceResolver(this.deps.connections, { ownerId: application.ownerId, teamId: application.teamId ?? null })(body.provider, body.modelId, body.settings, SETTINGS_PATHS);
    const config = await this.deps.configs.create({
      applicationId: application.id,
      name,
      provider,
      modelId: model,
      settings,
      makeDefault: body.isDefault === true,
    });
    return toModelConfigView(config);
  }
}
