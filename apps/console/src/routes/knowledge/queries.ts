import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type KnowledgeDocument = components['schemas']['KnowledgeDocument'];
export type SearchHit = components['schemas']['KnowledgeSearchResult'];
export type EmbeddingProvider = 'local' | 'provider_a' | 'provider_c' | 'provider_d';
export type SearchMode = 'hybrid' | 'vector' | 'keyword';

/** How often the list is polled while a document is processing or re-indexing. */
export const POLL_MS = 1500;
const key = ['knowledge'] as const;

/** An application's documents; polled while any of them is still being processed. */
export function useDocuments(applicationId: string | undefined) {
  return useQuery({
    queryKey: [...key, 'documents', applicationId],
    enabled: !!applicationId,
    queryFn: () => data(api.GET('/api/knowledge', { params: { query: { applicationId: applicationId!, page: 1, limit: 100 } } })),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'processing' || d.reindexing) ? POLL_MS : false),
  });
}

export function useUpload(applicationId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, embeddingProvider }: { file: File; embeddingProvider: EmbeddingProvider }) => {
      const { data: body, error, response } = await api.POST('/api/knowledge', {
        body: { file: file as unknown as string, applicationId: applicationId!, embeddingProvider },
        bodySerializer: (input) => {
          const form = new FormData();
          form.append('applicationId', input.applicationId);
          if (input.embeddingProvider) form.append('embeddingProvider', input.embeddingProvider);
          form.append('file', file, file.name);
          return form;
        },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return body as KnowledgeDocument;
    },
    onSettled: () => client.invalidateQueries({ queryKey: [...key, 'documents', applicationId] }),
  });
}

export function useDeleteDocument(applicationId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error, response } = await api.DELETE('/api/knowledge/{id}', { params: { path: { id } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'documents', applicationId] }),
  });
}

export function useSearch(applicationId: string | undefined) {
  return useMutation({
    mutationFn: ({ query, mode }: { query: string; mode: SearchMode }) =>
      data(api.GET('/api/knowledge/search', { params: { query: { applicationId: applicationId!, query, mode, limit: 10 } } })),
  });
}
