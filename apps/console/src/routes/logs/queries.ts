import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components, paths } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type LogRow = components['schemas']['LogRow'];
export type LogConversation = components['schemas']['LogConversation'];
export type LogMessage = components['schemas']['LogMessage'];
export type Trace = components['schemas']['Trace'];
export type TraceSpan = components['schemas']['TraceSpan'];
export type Annotation = components['schemas']['Annotation'];
export type AnnotationSettings = components['schemas']['AnnotationSettings'];
export type LogFilters = NonNullable<paths['/api/applications/{appId}/logs']['get']['parameters']['query']>;

export const PAGE_SIZE = 20;

export function useLogs(appId: string, filters: LogFilters, page: number) {
  return useQuery({
    queryKey: ['logs', appId, filters, page],
    queryFn: async () => {
      const { data: rows, error, response } = await api.GET('/api/applications/{appId}/logs', { params: { path: { appId }, query: { ...filters, page, limit: PAGE_SIZE } } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: rows ?? [], total: Number(response.headers.get('X-Total-Count') ?? rows?.length ?? 0) };
    },
    placeholderData: (previous) => previous,
  });
}

export function useLogConversation(appId: string, conversationId: string) {
  return useQuery({
    queryKey: ['logs', appId, 'conversation', conversationId],
    queryFn: () => data(api.GET('/api/applications/{appId}/logs/{conversationId}', { params: { path: { appId, conversationId } } })),
  });
}

const annotationsKey = (appId: string) => ['annotations', appId] as const;

export function useAnnotations(appId: string, search: string, page: number) {
  return useQuery({
    queryKey: [...annotationsKey(appId), search, page],
    queryFn: async () => {
      const { data: rows, error, response } = await api.GET('/api/applications/{appId}/annotations', {
        params: { path: { appId }, query: { ...(search ? { q: search } : {}), page, limit: PAGE_SIZE } },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: rows ?? [], total: Number(response.headers.get('X-Total-Count') ?? rows?.length ?? 0) };
    },
    placeholderData: (previous) => previous,
  });
}

export function useSaveAnnotation(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: { messageId?: string; question?: string; answer?: string } }) =>
      id
        ? data(api.PUT('/api/applications/{appId}/annotations/{id}', { params: { path: { appId, id } }, body: { question: body.question, answer: body.answer } }))
        : data(api.POST('/api/applications/{appId}/annotations', { params: { path: { appId } }, body })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: annotationsKey(appId) }), client.invalidateQueries({ queryKey: ['logs', appId] })]),
  });
}

export function useDeleteAnnotation(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/applications/{appId}/annotations/{id}', { params: { path: { appId, id } } })),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: annotationsKey(appId) }), client.invalidateQueries({ queryKey: ['logs', appId] })]),
  });
}

export function useAnnotationSettings(appId: string) {
  return useQuery({
    queryKey: [...annotationsKey(appId), 'settings'],
    queryFn: () => data(api.GET('/api/applications/{appId}/annotations/settings', { params: { path: { appId } } })),
  });
}

export function useSaveAnnotationSettings(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { repliesEnabled: boolean; threshold: number }) => data(api.PUT('/api/applications/{appId}/annotations/settings', { params: { path: { appId } }, body })),
    onSuccess: (saved) => client.setQueryData([...annotationsKey(appId), 'settings'], saved),
  });
}

/** Fetches the export with the session's token and hands it to the browser as a file. */
export async function downloadAnnotations(appId: string, format: 'csv' | 'jsonl'): Promise<void> {
  const { data: blob, response, error } = await api.GET('/api/applications/{appId}/annotations/export', { params: { path: { appId }, query: { format } }, parseAs: 'blob' });
  if (!response.ok || !blob) throw toApiError(response.status, error);
  const url = URL.createObjectURL(blob as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `annotations.${format}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The application's test sets (the Evaluate tab's datasets), to add an annotation to one. */
export function useDatasetChoices(appId: string) {
  return useQuery({
    queryKey: ['datasets', appId, 'choices'],
    queryFn: () => data(api.GET('/api/applications/{appId}/datasets', { params: { path: { appId } } })),
  });
}

/** What goes into a test set: an annotation, or a logged answer. */
export type DatasetSource = { annotationId: string } | { messageId: string };

export function useAddToDataset(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ datasetId, source }: { datasetId: string; source: DatasetSource }) => {
      const path = { appId, datasetId };
      const { data: added, error, response } =
        'annotationId' in source
          ? await api.POST('/api/applications/{appId}/datasets/{datasetId}/items/from-annotations', { params: { path }, body: { annotationIds: [source.annotationId] } })
          : await api.POST('/api/applications/{appId}/datasets/{datasetId}/items/from-messages', { params: { path }, body: { messageIds: [source.messageId] } });
      if (!response.ok) throw toApiError(response.status, error);
      return added!;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['datasets', appId] }),
  });
}
