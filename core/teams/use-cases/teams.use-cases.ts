import * as yup from 'yup';
import type { ProviderId } from '../../ai/domain/provider-id';
import { slugify } from '../../applications/domain/application';
import type { Actor } from '../../shared/actor';
import { validate } from '../../shared/validation';
import { toTeamView, type TeamView } from '../domain/team';
import { teamDescriptionField, teamNameField, teamSettingsField, teamSlugField } from '../domain/team-fields';
import type { TeamChanges, TeamRepository } from '../ports/team-repository.port';
import { findTeamAs, pageOf } from './team-access';
import type { Page } from '../../shared/pagination';

const createSchema = yup.object({
  name: teamNameField().required('name is required'),
  slug: teamSlugField(),
  description: teamDescriptionField(),
  settings: teamSettingsField(),
});

/** Creates a team with the caller as its one Owner. The slug defaults to one made from the name. */
export class CreateTeamUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(input: unknown, actor: Actor): Promise<TeamView> {
    const body = await validate(createSchema, input);
    const team = await this.deps.teams.create(
      {
        name: body.name,
        slug: body.slug ?? slugify(body.name),
        description: body.description ?? '',
        settings: {
          defaultProvider: (body.settings?.defaultProvider ?? null) as ProviderId | null,
          sharedProviderKeys: body.settings?.sharedProviderKeys ?? false,
          membersMayInvite: body.settings?.membersMayInvite ?? false,
        },
      },
      actor.userId,
    );
    return toTeamView(team, 'owner');
  }
}

/** The teams the caller belongs to, with their role in each. */
export class ListTeamsUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<TeamView>> {
    return pageOf((await this.deps.teams.listForUser(actor.userId)).map(({ team, role }) => toTeamView(team, role)), query);
  }
}

/** A team the caller belongs to (any role). */
export class GetTeamUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, actor: Actor): Promise<TeamView> {
    const { team, role } = await findTeamAs(this.deps.teams, id, actor, 'read');
    return toTeamView(team, role);
  }
}

const updateSchema = yup.object({
  name: teamNameField(),
  slug: teamSlugField(),
  description: teamDescriptionField(),
  settings: teamSettingsField(),
});

/** Partial update of name, slug (still unique), description and settings: Admins and the Owner. */
export class UpdateTeamUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, input: unknown, actor: Actor): Promise<TeamView> {
    const { team, role } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    const { settings, ...fields } = await validate(updateSchema, input);
    const changes: TeamChanges = Object.fromEntries(Object.entries({ ...fields, ...settings }).filter(([, v]) => v !== undefined));
    return toTeamView(await this.deps.teams.update(team.id, changes), role);
  }
}

/** Deletes a team: the Owner only, once it holds no application (409 until they are moved or deleted). */
export class DeleteTeamUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, actor: Actor): Promise<void> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'delete');
    // The applications' reference to the team refuses the delete (a ConflictError) while any remains.
    await this.deps.teams.delete(team.id);
  }
}
