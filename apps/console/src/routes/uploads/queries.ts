import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type Upload = components['schemas']['Upload'];
export const PAGE_SIZE = 20;
/** The API's limit (docs/openapi/core-api/uploads.json), checked here too to save a 10 MB round trip. */
export const MAX_BYTES = 10 * 1024 * 1024;

const key = ['uploads'] as const;

export function useUploads(page: number) {
  return useQuery({
    queryKey: [...key, page],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/uploads', { params: { query: { page, limit: PAGE_SIZE } } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: data as Upload[], total: Number(response.headers.get('X-Total-Count') ?? (data as Upload[]).length) };
    },
  });
}

export function useUploadFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const { data, error, response } = await api.POST('/api/uploads', {
        body: { file: file as unknown as string },
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', file, file.name);
          return form;
        },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return data as Upload;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error, response } = await api.DELETE('/api/uploads/{id}', { params: { path: { id } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

/** Fetches the file with the session's token (the download needs it) and hands it to the browser. */
export async function downloadUpload(upload: Upload): Promise<void> {
  const { data: blob, response, error } = await api.GET('/api/uploads/{id}/content', { params: { path: { id: upload.id! } }, parseAs: 'blob' });
  if (!response.ok) throw toApiError(response.status, error);
  const url = URL.createObjectURL(blob as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = upload.fileName ?? 'upload';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
