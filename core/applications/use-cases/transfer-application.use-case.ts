import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { uuidField, validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';
import { teamHolder, type TeamDirectory } from './team-holder';

const schema = yup.object({ teamId: uuidField('teamId').required('teamId is required') });

/**
 * Moves an application (and everything under it) to a team. The caller must hold the application's
 * `delete` right (its owner, or the Owner of the team holding it) and may place applications in the
 * target team (`teamHolder`). The team's Owner becomes the application's owner: their plan and quota apply.
 */
export class TransferApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; teams: TeamDirectory }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'delete');
    const { teamId } = await validate(schema, input);
    const holder = await teamHolder(this.deps.teams, teamId, actor, 'Moving an application into a team');
    return toApplicationView(await this.deps.applications.moveTo(app.id, holder));
  }
}
