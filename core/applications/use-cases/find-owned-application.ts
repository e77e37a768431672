import { authorize } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Application } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';

/**
 * The application if the caller may perform `action` on it (core/access decides: the owner of a
 * personal application, or a member of its team whose role allows it). One the caller may not see is a
 * 404 that does not tell "not yours" from "does not exist"; one they see but whose role does not allow
 * `action` is a 403. Without `action`, the strictest (`delete`, the Owner's alone) applies, so a caller
 * that does not say what it does never grants a team member more than the Owner has granted.
 */
export async function findOwnedApplication(
  applications: ApplicationRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
): Promise<Application> {
  if (!isUuid(id)) throw new NotFoundError('Application');
  const app = await applications.findById(id);
  await authorize(app, actor, action, 'Application', applications);
  return app!;
}

/**
 * The same rule for a resource of its own (an API key, a domain, a webhook) that may be scoped to an
 * application: scoped, the application's owner and team decide; unscoped (or without `applications`),
 * only its own owner passes. The 404 names the resource.
 */
export async function authorizeUnderApplication(
  resource: { ownerId: string; applicationId?: string | null } | null,
  actor: Actor,
  action: AccessAction,
  name: string,
  applications: ApplicationRepository | null | undefined,
): Promise<void> {
  if (!resource) throw new NotFoundError(name);
  if (!resource.applicationId || !applications) {
    await authorize({ ownerId: resource.ownerId, teamId: null }, actor, action, name, null);
    return;
  }
  await authorize(await applications.findById(resource.applicationId), actor, action, name, applications);
}
