import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data, session } from '../../api/client';
import type { components } from '../../api/schema';

export type User = components['schemas']['User'];
export type Identity = components['schemas']['Identity'];
export type BillingUsage = components['schemas']['BillingUsage'];

const key = ['account'] as const;

export function useProfile() {
  return useQuery({ queryKey: [...key, 'profile'], queryFn: () => data(api.GET('/api/users/me')) });
}

export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (displayName: string) => data(api.PUT('/api/users/me', { body: { displayName } })),
    onSuccess: (user) => {
      if (user.id && user.email) session.setUser({ id: user.id, email: user.email, displayName: user.displayName, role: user.role ?? 'user' });
      return client.invalidateQueries({ queryKey: [...key, 'profile'] });
    },
  });
}

/** Changing the password signs out every session (this one too): the console then shows the sign-in screen. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => data(api.POST('/api/auth/change-password', { body })),
  });
}

export function useIdentities() {
  return useQuery({ queryKey: [...key, 'identities'], queryFn: async () => (await data(api.GET('/api/users/me/identities'))).identities ?? [] });
}

export function useSignInProviders() {
  return useQuery({ queryKey: ['auth-providers'], queryFn: () => data(api.GET('/api/auth/providers')), staleTime: 5 * 60_000 });
}

export function useUnlinkIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/users/me/identities/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'identities'] }),
  });
}

export function useUsage() {
  return useQuery({ queryKey: [...key, 'usage'], queryFn: () => data(api.GET('/api/billing/usage')) });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (password: string) => data(api.DELETE('/api/users/me', { body: { password } })),
  });
}
