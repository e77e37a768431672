import type { Actor } from '../../shared/actor';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

/** Deletes one of the caller's applications and, by cascade, its conversations, configs and documents. */
export class DeleteApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const app = await findOwnedApplication(this.deps.applications, id, actor);
    await this.deps.applications.delete(app.id);
  }
}
