import type { Application } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { ForbiddenError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { PublicCaller } from '../domain/public-caller';

/**
 * The application if the caller's key covers it (its own application, or any of its owner's for an
 * all-applications key) and, for a browser request, the application lists the page's origin.
 * Applications that do not exist answer like those outside the scope: 403, revealing nothing.
 */
export function usableApplication(app: Application | null, caller: PublicCaller): Application {
  const { key } = caller;
  if (!app || app.ownerId !== key.ownerId || (key.applicationId !== null && key.applicationId !== app.id)) {
    throw new ForbiddenError('This API key cannot be used with that application');
  }
  if (caller.preview && caller.preview.applicationId !== app.id) throw new ForbiddenError('This preview session cannot be used with that application');
  if (caller.origin !== undefined && !app.allowedOrigins.includes(caller.origin)) {
    throw new ForbiddenError('The application does not allow requests from this origin');
  }
  return app;
}

export async function findScopedApplication(applications: ApplicationRepository, caller: PublicCaller, applicationId: unknown): Promise<Application> {
  return usableApplication(isUuid(applicationId) ? await applications.findById(applicationId) : null, caller);
}
