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

/**
 * A knowledge base's documents (an application's own base has the application's id); polled while any of them
 * is still being processed.
 */
export function useDocuments(baseId: string | undefined) {
  return useQuery({
    queryKey: [...key, 'documents', baseId],
    enabled: !!baseId,
    queryFn: () => data(api.GET('/api/knowledge/bases/{id}/documents', { params: { path: { id: baseId! }, query: { page: 1, limit: 100 } } })),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'processing' || d.reindexing) ? POLL_MS : false),
  });
}

/** Adds a file to a knowledge base (an application's own base has the application's id). */
export function useUpload(baseId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, embeddingProvider }: { file: File; embeddingProvider: EmbeddingProvider }) => {
      const { data: body, error, response } = await api.POST('/api/knowledge/bases/{id}/documents', {
        params: { path: { id: baseId! } },
        body: { file: file as unknown as string, embeddingProvider },
        bodySerializer: (input) => {
          const form = new FormData();
          if (input.embeddingProvider) form.append('embeddingProvider', input.embeddingProvider);
          form.append('file', file, file.name);
          return form;
        },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return body as KnowledgeDocument;
    },
    onSettled: () => client.invalidateQueries({ queryKey: [...key, 'documents', baseId] }),
  });
}

export function useDeleteDocument(baseId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error, response } = await api.DELETE('/api/knowledge/{id}', { params: { path: { id } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'documents', baseId] }),
  });
}

/** What an application's chats search (every base it uses), or one knowledge base alone. */
export type SearchScope = { applicationId: string } | { baseId: string };

export function useSearch(scope: SearchScope | undefined) {
  return useMutation({
    mutationFn: ({ query, mode, asChat }: { query: string; mode: SearchMode; asChat?: boolean }) =>
      data(
        api.GET('/api/knowledge/search', {
          params: { query: asChat && scope && 'applicationId' in scope ? { ...scope, query, asChat: 'true' } : { ...scope, query, mode, limit: 10 } },
        }),
      ),
  });
}

export type DocumentVersion = components['schemas']['KnowledgeDocumentVersion'];
export type KnowledgeChunk = components['schemas']['KnowledgeChunk'];
export type RetrievalSettings = components['schemas']['KnowledgeRetrievalSettings'];

/** A document's versions, newest first; polled while one is being built. */
export function useVersions(id: string | undefined) {
  return useQuery({
    queryKey: [...key, 'versions', id],
    enabled: !!id,
    queryFn: () => data(api.GET('/api/knowledge/{id}/versions', { params: { path: { id: id! } } })),
    refetchInterval: (query) => (query.state.data?.some((v) => v.state === 'replacing') ? POLL_MS : false),
  });
}

/** A document's chunks; `version` in the key, so a new version's switch reads them again. */
export function useChunks(id: string | undefined, version?: number) {
  return useQuery({
    queryKey: [...key, 'chunks', id, version],
    enabled: !!id,
    queryFn: () => data(api.GET('/api/knowledge/{id}/chunks', { params: { path: { id: id! }, query: { page: 1, limit: 200 } } })),
  });
}

/** Everything about one document changes together (versions, chunks, the list's row). */
function useInvalidateDocument(applicationId: string | undefined) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: key, predicate: (q) => q.queryKey[2] === applicationId || q.queryKey[1] !== 'documents' });
}

export function useReplaceDocument(applicationId: string | undefined, id: string) {
  const invalidate = useInvalidateDocument(applicationId);
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      const { error, response } = await api.PUT('/api/knowledge/{id}', {
        params: { path: { id } },
        body: { file: file as unknown as string },
        bodySerializer: () => form,
      });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSettled: invalidate,
  });
}

export function useRestoreVersion(applicationId: string | undefined, id: string) {
  const invalidate = useInvalidateDocument(applicationId);
  return useMutation({
    mutationFn: async (version: number) => {
      const { error, response } = await api.POST('/api/knowledge/{id}/versions/{version}/restore', { params: { path: { id, version } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSettled: invalidate,
  });
}

export function useEditChunk(applicationId: string | undefined, id: string) {
  const invalidate = useInvalidateDocument(applicationId);
  return useMutation({
    mutationFn: async ({ index, content, enabled }: { index: number; content?: string; enabled?: boolean }) => {
      const { error, response } = await api.PATCH('/api/knowledge/{id}/chunks/{index}', { params: { path: { id, index } }, body: { content, enabled } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSettled: invalidate,
  });
}

export function useAddChunk(applicationId: string | undefined, id: string) {
  const invalidate = useInvalidateDocument(applicationId);
  return useMutation({
    mutationFn: async (content: string) => {
      const { error, response } = await api.POST('/api/knowledge/{id}/chunks', { params: { path: { id } }, body: { content } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSettled: invalidate,
  });
}

export function useRetrievalSettings(applicationId: string | undefined) {
  return useQuery({
    queryKey: [...key, 'settings', applicationId],
    enabled: !!applicationId,
    queryFn: () => data(api.GET('/api/knowledge/settings/{applicationId}', { params: { path: { applicationId: applicationId! } } })),
  });
}

export function useSaveRetrievalSettings(applicationId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { mode?: SearchMode | null; topK?: number; scoreThreshold?: number | null; rerank?: boolean; baseIds?: string[] }) =>
      data(api.PUT('/api/knowledge/settings/{applicationId}', { params: { path: { applicationId: applicationId! } }, body })),
    onSuccess: (saved) => client.setQueryData([...key, 'settings', applicationId], saved),
  });
}

export type KnowledgeBase = components['schemas']['KnowledgeBase'];

/** The knowledge bases of their own the user can read (personal and their teams'). */
export function useBases() {
  return useQuery({
    queryKey: [...key, 'bases'],
    queryFn: () => data(api.GET('/api/knowledge/bases', { params: { query: { page: 1, limit: 100 } } })),
  });
}

export function useBase(id: string | undefined) {
  return useQuery({
    queryKey: [...key, 'base', id],
    enabled: !!id,
    queryFn: () => data(api.GET('/api/knowledge/bases/{id}', { params: { path: { id: id! } } })),
  });
}

export function useCreateBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description?: string; teamId?: string | null }) => data(api.POST('/api/knowledge/bases', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'bases'] }),
  });
}

export function useUpdateBase(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; description?: string }) => data(api.PATCH('/api/knowledge/bases/{id}', { params: { path: { id } }, body })),
    onSuccess: (saved) => {
      client.setQueryData([...key, 'base', id], saved);
      void client.invalidateQueries({ queryKey: [...key, 'bases'] });
    },
  });
}

export function useDeleteBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error, response } = await api.DELETE('/api/knowledge/bases/{id}', { params: { path: { id } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
