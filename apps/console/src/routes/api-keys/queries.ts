import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type ApiKey = components['schemas']['ApiKey'];
export type CreatedApiKey = components['schemas']['CreatedApiKey'];

const key = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({ queryKey: key, queryFn: () => data(api.GET('/api/api-keys', { params: { query: { limit: 100 } } })) });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; applicationId: string | null; rateLimit: number }) => data(api.POST('/api/api-keys', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.POST('/api/api-keys/{id}/revoke', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** The widget's embed tag (the same as the README's). */
export function widgetSnippet(origin: string, applicationId: string, apiKey: string): string {
  return `<script src="${origin}/public/widget.js" data-app-id="${applicationId}" data-api-key="${apiKey}" async></script>`;
}
