import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type ApiKey = components['schemas']['ApiKey'];
export type CreatedApiKey = components['schemas']['CreatedApiKey'];
export type WidgetPreviewSession = components['schemas']['WidgetPreviewSession'];

/** How often the preview takes a fresh session, before the 15 minutes of the one it holds run out. */
const PREVIEW_REFRESH_MS = 12 * 60_000;

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

/**
 * A widget preview session for the application (`POST /api/applications/:id/widget-preview`): the widget
 * in the sandboxed preview frame chats with it through one of the application's keys, without the
 * application listing the console's origin. `keys` (the active keys' ids) is part of the key, so a key
 * created or revoked gets a new session. Never retried: a 409 says the application has no key yet.
 */
export function useWidgetPreview(applicationId: string, keys: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['widget-preview', applicationId, keys],
    queryFn: () => data(api.POST('/api/applications/{id}/widget-preview', { params: { path: { id: applicationId } } })),
    staleTime: PREVIEW_REFRESH_MS,
    refetchInterval: PREVIEW_REFRESH_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: false,
    retry: false,
  });
}
