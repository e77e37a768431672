import type { AccessAction } from '../../access/roles';
import type { Application } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { PublicCaller } from '../../public-api/domain/public-caller';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Dataset } from '../domain/dataset';
import type { DatasetRepository } from '../ports/evaluation-repository.port';

export interface EvaluationAccessDeps {
  applications: ApplicationRepository;
  datasets: DatasetRepository;
}

/** The application, if the caller may `read` its evaluations or `write` them (change datasets, start or cancel runs). */
export const evaluationApplication = (deps: EvaluationAccessDeps, appId: unknown, actor: Actor, action: AccessAction): Promise<Application> =>
  findOwnedApplication(deps.applications, appId, actor, action);

/** A dataset of the application, else the 404 that does not tell "not yours" from "does not exist". */
export async function datasetOf(deps: EvaluationAccessDeps, application: Application, datasetId: unknown): Promise<Dataset> {
  const dataset = isUuid(datasetId) ? await deps.datasets.findById(datasetId) : null;
  if (!dataset || dataset.applicationId !== application.id) throw new NotFoundError('Dataset');
  return dataset;
}

/**
 * The actor an API key acts as for the evaluation gate (CI): its owner, for the key's one application or, unscoped,
 * any of the owner's. A key scoped to another application sees a 404, as if the application did not exist.
 */
export function actorOfKey(caller: PublicCaller, appId: string): Actor {
  if (caller.preview || (caller.key.applicationId !== null && caller.key.applicationId !== appId)) throw new NotFoundError('Application');
  return { userId: caller.key.ownerId, role: 'user' };
}
