import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type ProviderKey = components['schemas']['ProviderKey'];
export type ProviderId = 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d';
export const PROVIDERS: ProviderId[] = ['provider_a', 'provider_b', 'provider_c', 'provider_d'];

const key = ['provider-keys'] as const;

export function useProviderKeys() {
  return useQuery({ queryKey: key, queryFn: () => data(api.GET('/api/provider-keys')) });
}

export function useProviderCatalogue() {
  return useQuery({ queryKey: ['providers'], queryFn: () => data(api.GET('/api/providers')), staleTime: 5 * 60_000 });
}

export function useSaveProviderKey(provider: ProviderId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (apiKey: string) => data(api.PUT('/api/provider-keys/{provider}', { params: { path: { provider } }, body: { apiKey } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useValidateProviderKey(provider: ProviderId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/provider-keys/{provider}/validate', { params: { path: { provider } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteProviderKey(provider: ProviderId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE('/api/provider-keys/{provider}', { params: { path: { provider } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
