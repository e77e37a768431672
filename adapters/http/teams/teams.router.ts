import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AcceptInvitationUseCase, InviteMemberUseCase, ListInvitationsUseCase, ResendInvitationUseCase, RevokeInvitationUseCase } from '../../../core/teams/use-cases/invitations.use-cases';
import type { ChangeMemberRoleUseCase, ListTeamMembersUseCase, RemoveMemberUseCase, TransferTeamOwnershipUseCase } from '../../../core/teams/use-cases/members.use-cases';
import type { DeleteTeamProviderKeyUseCase, ListTeamProviderKeysUseCase, SaveTeamProviderKeyUseCase } from '../../../core/teams/use-cases/team-provider-keys.use-cases';
import type { CreateTeamUseCase, DeleteTeamUseCase, GetTeamUseCase, ListTeamsUseCase, UpdateTeamUseCase } from '../../../core/teams/use-cases/teams.use-cases';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** Teams, their members, invitations and provider keys. */
export function teamsRouter(d: {
  auth: Middleware;
  create: CreateTeamUseCase;
  list: ListTeamsUseCase;
  get: GetTeamUseCase;
  update: UpdateTeamUseCase;
  remove: DeleteTeamUseCase;
  members: ListTeamMembersUseCase;
  changeRole: ChangeMemberRoleUseCase;
  removeMember: RemoveMemberUseCase;
  transfer: TransferTeamOwnershipUseCase;
  invite: InviteMemberUseCase;
  invitations: ListInvitationsUseCase;
  revokeInvitation: RevokeInvitationUseCase;
  resendInvitation: ResendInvitationUseCase;
  accept: AcceptInvitationUseCase;
  saveKey: SaveTeamProviderKeyUseCase;
  listKeys: ListTeamProviderKeysUseCase;
  deleteKey: DeleteTeamProviderKeyUseCase;
}): Router {
  const r = new Router({ prefix: '/api/teams' });
  r.use(d.auth);
  r.get('/', async (ctx) => {
    respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx)));
  });
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  // Before `/:id`: "invitations" is not a team id.
  r.post('/invitations/accept', async (ctx) => {
    ctx.body = await d.accept.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id, actorOf(ctx));
  });
  r.put('/:id', async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.id, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id, actorOf(ctx));
    ctx.status = 204;
  });
  r.get('/:id/members', async (ctx) => {
    respondWithPage(ctx, await d.members.execute(ctx.params.id, ctx.query, actorOf(ctx)));
  });
  r.put('/:id/members/:userId', async (ctx) => {
    ctx.body = await d.changeRole.execute(ctx.params.id, ctx.params.userId, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id/members/:userId', async (ctx) => {
    await d.removeMember.execute(ctx.params.id, ctx.params.userId, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/:id/leave', async (ctx) => {
    const actor = actorOf(ctx);
    await d.removeMember.execute(ctx.params.id, actor.userId, actor);
    ctx.status = 204;
  });
  r.post('/:id/transfer', async (ctx) => {
    ctx.body = await d.transfer.execute(ctx.params.id, ctx.request.body, actorOf(ctx));
  });
  r.get('/:id/invitations', async (ctx) => {
    respondWithPage(ctx, await d.invitations.execute(ctx.params.id, ctx.query, actorOf(ctx)));
  });
  r.post('/:id/invitations', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.invite.execute(ctx.params.id, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id/invitations/:invitationId', async (ctx) => {
    await d.revokeInvitation.execute(ctx.params.id, ctx.params.invitationId, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/:id/invitations/:invitationId/resend', async (ctx) => {
    ctx.body = await d.resendInvitation.execute(ctx.params.id, ctx.params.invitationId, actorOf(ctx));
  });
  r.get('/:id/provider-keys', async (ctx) => {
    ctx.body = await d.listKeys.execute(ctx.params.id, actorOf(ctx));
  });
  r.put('/:id/provider-keys/:provider', async (ctx) => {
    ctx.body = await d.saveKey.execute(ctx.params.id, ctx.params.provider, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id/provider-keys/:provider', async (ctx) => {
    await d.deleteKey.execute(ctx.params.id, ctx.params.provider, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}
