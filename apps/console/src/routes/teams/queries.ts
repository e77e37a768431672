import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { teamsQuery } from '../../lib/teams';
import { toApiError } from '../../lib/errors';

export type Team = components['schemas']['Team'];
export type TeamRole = Team['role'];
export type TeamMember = components['schemas']['TeamMember'];
export type TeamInvitation = components['schemas']['TeamInvitation'];
export type TeamProviderKey = components['schemas']['TeamProviderKey'];
export type SsoConfig = components['schemas']['SsoConfig'];
export type SsoConfigInput = components['schemas']['SsoConfigInput'];

export const PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d'] as const;
export type Provider = (typeof PROVIDERS)[number];
const RANK: Record<TeamRole, number> = { owner: 4, admin: 3, member: 2, viewer: 1 };

/** Admins and the Owner manage the team (settings, keys, invitations, SSO). */
export const mayManage = (role: TeamRole) => RANK[role] >= RANK.admin;
/** Whether `actor` may change or remove a member with `target`'s role: an Admin manages Members and Viewers, the Owner everyone else. */
export const mayManageMember = (actor: TeamRole, target: TeamRole) => target !== 'owner' && mayManage(actor) && (actor === 'owner' || RANK[target] < RANK.admin);
/** The roles `actor` may give (to an invitation or a member). */
export const assignableRoles = (actor: TeamRole): Array<Exclude<TeamRole, 'owner'>> => (actor === 'owner' ? ['admin', 'member', 'viewer'] : actor === 'admin' ? ['member', 'viewer'] : ['member', 'viewer']);

const teamKey = (id: string) => ['teams', 'one', id] as const;

export function useTeams() {
  return useQuery(teamsQuery);
}

export function useTeam(id: string) {
  return useQuery({ queryKey: teamKey(id), queryFn: () => data(api.GET('/api/teams/{id}', { params: { path: { id } } })) });
}

export function useMembers(id: string) {
  return useQuery({ queryKey: [...teamKey(id), 'members'], queryFn: () => data(api.GET('/api/teams/{id}/members', { params: { path: { id }, query: { limit: 100 } } })) });
}

export function useInvitations(id: string, enabled: boolean) {
  return useQuery({ queryKey: [...teamKey(id), 'invitations'], enabled, queryFn: () => data(api.GET('/api/teams/{id}/invitations', { params: { path: { id }, query: { limit: 100 } } })) });
}

export function useTeamKeys(id: string, enabled: boolean) {
  return useQuery({ queryKey: [...teamKey(id), 'provider-keys'], enabled, queryFn: () => data(api.GET('/api/teams/{id}/provider-keys', { params: { path: { id } } })) });
}

/** Every mutation of a team refreshes the team's queries and the list of teams (the switcher's too). */
function useTeamMutation<V, R>(id: string, fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['teams'] });
    },
  });
}

export function useCreateTeam() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; slug?: string; description?: string }) => data(api.POST('/api/teams', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['teams'] }),
  });
}

export const useUpdateTeam = (id: string) =>
  useTeamMutation(id, (body: { name?: string; description?: string; settings?: Team['settings'] }) => data(api.PUT('/api/teams/{id}', { params: { path: { id } }, body })));
export const useDeleteTeam = (id: string) => useTeamMutation(id, () => data(api.DELETE('/api/teams/{id}', { params: { path: { id } } })));
export const useSetRole = (id: string) =>
  useTeamMutation(id, ({ userId, role }: { userId: string; role: TeamRole }) => data(api.PUT('/api/teams/{id}/members/{userId}', { params: { path: { id, userId } }, body: { role } })));
export const useRemoveMember = (id: string) => useTeamMutation(id, (userId: string) => data(api.DELETE('/api/teams/{id}/members/{userId}', { params: { path: { id, userId } } })));
export const useLeave = (id: string) => useTeamMutation(id, () => data(api.POST('/api/teams/{id}/leave', { params: { path: { id } } })));
export const useTransfer = (id: string) => useTeamMutation(id, (userId: string) => data(api.POST('/api/teams/{id}/transfer', { params: { path: { id } }, body: { userId } })));
export const useInvite = (id: string) =>
  useTeamMutation(id, (body: { email: string; role: Exclude<TeamRole, 'owner'> }) => data(api.POST('/api/teams/{id}/invitations', { params: { path: { id } }, body })));
export const useRevokeInvitation = (id: string) =>
  useTeamMutation(id, (invitationId: string) => data(api.DELETE('/api/teams/{id}/invitations/{invitationId}', { params: { path: { id, invitationId } } })));
/** Resending keeps the invitation and mails it with a fresh token and seven more days; the previous link stops working. */
export const useResendInvitation = (id: string) =>
  useTeamMutation(id, (invitation: TeamInvitation) =>
    data(api.POST('/api/teams/{id}/invitations/{invitationId}/resend', { params: { path: { id, invitationId: invitation.id } } })),
  );
export const useSaveTeamKey = (id: string) =>
  useTeamMutation(id, ({ provider, apiKey }: { provider: Provider; apiKey: string }) => data(api.PUT('/api/teams/{id}/provider-keys/{provider}', { params: { path: { id, provider } }, body: { apiKey } })));
export const useDeleteTeamKey = (id: string) => useTeamMutation(id, (provider: Provider) => data(api.DELETE('/api/teams/{id}/provider-keys/{provider}', { params: { path: { id, provider } } })));

export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => data(api.POST('/api/teams/invitations/accept', { body: { token } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['teams'] }),
  });
}

/** The team's SSO connection; `null` when it has none (the API's 404). */
export function useSsoConfig(slug: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['teams', 'sso', slug],
    enabled: enabled && !!slug,
    queryFn: async (): Promise<SsoConfig | null> => {
      const { data: body, error, response } = await api.GET('/api/sso/{teamSlug}/config', { params: { path: { teamSlug: slug! } } });
      if (response.status === 404) return null;
      if (!response.ok) throw toApiError(response.status, error);
      return body as SsoConfig;
    },
  });
}

export function useSaveSso(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConfigInput) => data(api.PUT('/api/sso/{teamSlug}/config', { params: { path: { teamSlug: slug } }, body })),
    onSuccess: (saved) => client.setQueryData(['teams', 'sso', slug], saved),
  });
}

export function useDeleteSso(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE('/api/sso/{teamSlug}/config', { params: { path: { teamSlug: slug } } })),
    onSuccess: () => client.setQueryData(['teams', 'sso', slug], null),
  });
}
