import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { PublicCaller } from '../../public-api/domain/public-caller';
import { findScopedApplication } from '../../public-api/use-cases/scoped-application';
import { ValidationError } from '../../shared/errors';
import { uuidField, validate } from '../../shared/validation';
import type { AnalyticsRecorder } from './analytics-recorder';

const body = yup.object({ applicationId: uuidField('applicationId') });

/**
 * `POST /api/v1/widget/loaded`: the embeddable widget says it was loaded on a page, once per load.
 * The key must cover the application (and the page's origin be allowed), like every widget call;
 * the load is counted in memory and written with the next batch.
 */
export class RecordWidgetLoadUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; recorder: AnalyticsRecorder }) {}

  async execute(input: unknown, caller: PublicCaller): Promise<void> {
    const { applicationId } = await validate(body, input ?? {});
    const id = applicationId ?? caller.key.applicationId;
    if (id === null || id === undefined) {
      throw ValidationError.field('applicationId', "applicationId is required: this API key covers all of its owner's applications");
    }
    const app = await findScopedApplication(this.deps.applications, caller, id);
    this.deps.recorder.record({ type: 'widget_loaded', applicationId: app.id, source: 'widget' });
  }
}
