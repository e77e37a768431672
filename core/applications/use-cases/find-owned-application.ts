import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Application } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';

/** The caller's application, or a 404 that does not tell "not yours" from "does not exist". */
export async function findOwnedApplication(
  applications: ApplicationRepository,
  id: unknown,
  actor: Actor,
): Promise<Application> {
  if (!isUuid(id)) throw new NotFoundError('Application');
  const app = await applications.findById(id);
  if (!app || app.ownerId !== actor.userId) throw new NotFoundError('Application');
  return app;
}
