import type { Actor } from '../../shared/actor';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

/** One of the caller's applications. */
export class GetApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<ApplicationView> {
    return toApplicationView(await findOwnedApplication(this.deps.applications, id, actor, 'read'));
  }
}
