import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type CustomDomain = components['schemas']['CustomDomain'];
const key = ['custom-domains'] as const;

export function useDomains() {
  return useQuery({ queryKey: [...key, 'list'], queryFn: () => data(api.GET('/api/custom-domains', { params: { query: { page: '1', limit: '100' } } })) });
}

export function useDomain(id: string) {
  return useQuery({ queryKey: [...key, 'one', id], queryFn: () => data(api.GET('/api/custom-domains/{id}', { params: { path: { id } } })) });
}

function useDomainMutation<A>(fn: (arg: A) => Promise<CustomDomain>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (d) => {
      if (d?.id) {
        // A read of this domain still in flight was sent before the change: it must not land after it.
        await client.cancelQueries({ queryKey: [...key, 'one', d.id] });
        client.setQueryData([...key, 'one', d.id], d);
      }
      return client.invalidateQueries({ queryKey: [...key, 'list'] });
    },
  });
}

export const useAddDomain = () => useDomainMutation((body: { domain: string; applicationId: string }) => data(api.POST('/api/custom-domains', { body })));
export const useVerifyDomain = (id: string) => useDomainMutation(() => data(api.POST('/api/custom-domains/{id}/verify', { params: { path: { id } } })));
export const useActivateDomain = (id: string) => useDomainMutation(() => data(api.POST('/api/custom-domains/{id}/activate', { params: { path: { id } } })));
export const useDomainSettings = (id: string) =>
  useDomainMutation((body: { redirectWww: boolean; forceHttps: boolean; customHeaders: Record<string, string> }) => data(api.PUT('/api/custom-domains/{id}', { params: { path: { id } }, body })));

export function useDeleteDomain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/custom-domains/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** `Name: value` lines ⇄ a headers object (the API checks names and values). */
export function parseHeaders(text: string): { headers: Record<string, string>; badLine: number | null } {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { headers, badLine: i + 1 };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers, badLine: null };
}
export const formatHeaders = (h: Record<string, string> | undefined) => Object.entries(h ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n');

/** Whole days from now until a date (negative when past). */
export const daysUntil = (iso: string) => Math.floor((Date.parse(iso) - Date.now()) / 86_400_000);

/** The caller's team (with their role) for an application held by a team; claiming a domain needs Admin or above. */
export function useTeam(teamId: string | null | undefined) {
  return useQuery({
    queryKey: ['teams', 'one', teamId],
    enabled: !!teamId,
    queryFn: () => data(api.GET('/api/teams/{id}', { params: { path: { id: teamId! } } })),
  });
}
