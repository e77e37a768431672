import type { Container } from 'inversify';
import { teamsRouter } from '../../../adapters/http/teams/teams.router';
import { TypeOrmTeamProviderKeyRepository, TypeOrmTeamRepository } from '../../../adapters/persistence/teams/type-orm-team.repository';
import { AcceptInvitationUseCase, InviteMemberUseCase, ListInvitationsUseCase, ResendInvitationUseCase, RevokeInvitationUseCase } from '../../../core/teams/use-cases/invitations.use-cases';
import { ChangeMemberRoleUseCase, ListTeamMembersUseCase, RemoveMemberUseCase, TransferTeamOwnershipUseCase } from '../../../core/teams/use-cases/members.use-cases';
import {
  DeleteTeamProviderKeyUseCase,
  ListTeamProviderKeysUseCase,
  SaveTeamProviderKeyUseCase,
  TeamTurnKeys,
} from '../../../core/teams/use-cases/team-provider-keys.use-cases';
import { CreateTeamUseCase, DeleteTeamUseCase, GetTeamUseCase, ListTeamsUseCase, UpdateTeamUseCase } from '../../../core/teams/use-cases/teams.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { eventDeps } from '../../shared/modules/event.tokens';
import { consoleBaseUrl } from '../../shared/config';
import { TOKENS, resolve } from '../../shared/tokens';
import { TEAM_TOKENS } from './teams.tokens';

/** Teams: members and roles, invitations, ownership, the team's provider keys (docs/teams.md). */
export const teamsModule: AppModule = {
  name: 'teams',
  bind(c: Container) {
    provide(c, TEAM_TOKENS.TeamRepository, (get) => new TypeOrmTeamRepository(get(TOKENS.DataSource)));
    provide(c, TEAM_TOKENS.TeamProviderKeyRepository, (get) => new TypeOrmTeamProviderKeyRepository(get(TOKENS.DataSource)));
    const teams = (get: Getter) => ({ teams: get(TEAM_TOKENS.TeamRepository) });
    const keys = (get: Getter) => ({ ...teams(get), keys: get(TEAM_TOKENS.TeamProviderKeyRepository), secretBox: get(TOKENS.SecretBox) });
    const invitations = (get: Getter) => ({
      ...teams(get),
      users: get(TOKENS.UserRepository),
      keyHasher: get(TOKENS.KeyHasher),
      mailer: get(TOKENS.Mailer),
      clock: get(TOKENS.Clock),
      consoleUrl: consoleBaseUrl(get(TOKENS.Config)),
    });
    provide(c, CreateTeamUseCase, (get) => new CreateTeamUseCase(teams(get)));
    provide(c, ListTeamsUseCase, (get) => new ListTeamsUseCase(teams(get)));
    provide(c, GetTeamUseCase, (get) => new GetTeamUseCase(teams(get)));
    provide(c, UpdateTeamUseCase, (get) => new UpdateTeamUseCase(teams(get)));
    provide(c, DeleteTeamUseCase, (get) => new DeleteTeamUseCase(teams(get)));
    provide(c, ListTeamMembersUseCase, (get) => new ListTeamMembersUseCase(teams(get)));
    provide(c, ChangeMemberRoleUseCase, (get) => new ChangeMemberRoleUseCase(teams(get)));
    provide(c, RemoveMemberUseCase, (get) => new RemoveMemberUseCase(teams(get)));
    provide(c, TransferTeamOwnershipUseCase, (get) =>
      new TransferTeamOwnershipUseCase({ ...teams(get), applications: get(TOKENS.ApplicationRepository), unitOfWork: eventDeps(c, get).unitOfWork }),
    );
    provide(c, InviteMemberUseCase, (get) => new InviteMemberUseCase(invitations(get)));
    provide(c, ListInvitationsUseCase, (get) => new ListInvitationsUseCase(teams(get)));
    provide(c, RevokeInvitationUseCase, (get) => new RevokeInvitationUseCase(teams(get)));
    provide(c, ResendInvitationUseCase, (get) => new ResendInvitationUseCase(invitations(get)));
    provide(c, AcceptInvitationUseCase, (get) => new AcceptInvitationUseCase(invitations(get)));
    provide(c, SaveTeamProviderKeyUseCase, (get) => new SaveTeamProviderKeyUseCase(keys(get)));
    provide(c, ListTeamProviderKeysUseCase, (get) => new ListTeamProviderKeysUseCase(keys(get)));
    provide(c, DeleteTeamProviderKeyUseCase, (get) => new DeleteTeamProviderKeyUseCase(keys(get)));
    provide(c, TeamTurnKeys, (get) => new TeamTurnKeys(keys(get)));
  },
  routers: (c) => [
    teamsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateTeamUseCase),
      list: resolve(c, ListTeamsUseCase),
      get: resolve(c, GetTeamUseCase),
      update: resolve(c, UpdateTeamUseCase),
      remove: resolve(c, DeleteTeamUseCase),
      members: resolve(c, ListTeamMembersUseCase),
      changeRole: resolve(c, ChangeMemberRoleUseCase),
      removeMember: resolve(c, RemoveMemberUseCase),
      transfer: resolve(c, TransferTeamOwnershipUseCase),
      invite: resolve(c, InviteMemberUseCase),
      invitations: resolve(c, ListInvitationsUseCase),
      revokeInvitation: resolve(c, RevokeInvitationUseCase),
      resendInvitation: resolve(c, ResendInvitationUseCase),
      accept: resolve(c, AcceptInvitationUseCase),
      saveKey: resolve(c, SaveTeamProviderKeyUseCase),
      listKeys: resolve(c, ListTeamProviderKeysUseCase),
      deleteKey: resolve(c, DeleteTeamProviderKeyUseCase),
    }),
  ],
};
