import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { uuidField, validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import type { ApplicationQuotaGuard } from './create-application.use-case';
import { findOwnedApplication } from './find-owned-application';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import { placeInTeam, type TeamDirectory } from './team-holder';

const schema = yup.object({ teamId: uuidField('teamId').required('teamId is required') });

/**
 * Moves an application (and everything under it) to a team. The caller must hold the application's
 * `delete` right (its owner, or the Owner of the team holding it) and may place applications in the
 * target team (`teamHolder`). The team's Owner becomes the application's owner: their plan's application
 * quota is checked as a creation there would be (402 past it, and nothing moves), atomically with the move.
 */
export class TransferApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; teams: TeamDirectory; guard?: ApplicationQuotaGuard; unitOfWork?: UnitOfWork }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'delete');
    const { teamId } = await validate(schema, input);
    // The caller's role and the team's Owner are read under the team's lock, in the move's transaction
    // (`placeInTeam`). The repository decides against the stored owner (not a read a cache may serve) whether
    // the move adds to the Owner's count: one they already hold (their own, into their team) does not.
    const moved = await placeInTeam(this.deps, teamId, actor, 'Moving an application into a team', (holder, limit) => this.deps.applications.moveTo(app.id, holder, limit));
    return toApplicationView(moved);
  }
}
