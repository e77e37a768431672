import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { Actor } from '../../shared/actor';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import type { StoredFilesCleanup } from '../../uploads/use-cases/stored-files-cleanup';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

export interface DeleteApplicationDeps {
  applications: ApplicationRepository;
  /** The application's stored files (knowledge sources), removed after its rows; none kept when absent. */
  storedFiles?: Pick<StoredFilesCleanup, 'forApplication'>;
  events?: EventPublisher;
  unitOfWork?: UnitOfWork;
}

/**
 * Deletes one of the caller's applications and, by cascade, its conversations, configs and documents;
 * then the documents' stored files. A file that cannot be removed is reported, never an error here.
 */
export class DeleteApplicationUseCase {
  constructor(private readonly deps: DeleteApplicationDeps) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'delete');
    const removeFiles = await this.deps.storedFiles?.forApplication(app);
    const { events, unitOfWork } = this.deps;
    const work = async () => {
      await this.deps.applications.delete(app.id);
      await events?.publish({ type: 'application.deleted', ownerId: app.ownerId, applicationId: app.id, data: { applicationId: app.id, name: app.name } });
    };
    await (unitOfWork ? unitOfWork.run(work) : work());
    await removeFiles?.();
  }
}
