import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type DataExport = components['schemas']['DataExport'];
export type ImportedApplication = components['schemas']['ImportedApplication'];
export type ImportBody = { applications: ImportedApplication[]; version?: number };
export type ImportResult = NonNullable<NonNullable<Awaited<ReturnType<typeof importData>>['results']>[number]>;
const importData = (body: ImportBody) => data(api.POST('/api/data-import', { body }));
export type ExportRequest = { resources: 'all' | 'applications' | 'conversations' | 'analytics'; format: 'json' | 'csv' };
export interface ExportPage {
  items: DataExport[];
  total: number;
}

export const PAGE_SIZE = 20;
const key = ['data-export'] as const;
const listKey = [...key, 'list'] as const;
export const inProgress = (e: DataExport | undefined) => e?.status === 'pending' || e?.status === 'running';

/** Starts an export; it is put at the top of the first page at once, then the list is read again. */
export function useRequestExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportRequest) => data(api.POST('/api/data-export', { body })),
    onSuccess: async (created) => {
      client.setQueryData<ExportPage>([...listKey, 1], (page) =>
        page ? { items: [created, ...page.items.filter((e) => e.id !== created.id)].slice(0, PAGE_SIZE), total: page.total + 1 } : page,
      );
      await client.invalidateQueries({ queryKey: listKey });
    },
  });
}

/** One page of the account's exports, newest first, polled every second while any of them is being prepared. */
export function useExports(page: number) {
  return useQuery({
    queryKey: [...listKey, page],
    queryFn: async (): Promise<ExportPage> => {
      const { data: items, error, response } = await api.GET('/api/data-export', { params: { query: { page, limit: PAGE_SIZE } } });
      if (!response.ok) throw toApiError(response.status, error);
      return { items: items ?? [], total: Number(response.headers.get('X-Total-Count') ?? items?.length ?? 0) };
    },
    refetchInterval: (q) => (q.state.data?.items.some(inProgress) ? 1000 : false),
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
  });
}

/** Fetches the file with the session's token (the download needs it) and hands it to the browser. */
export async function downloadExport(e: DataExport): Promise<void> {
  const { data: blob, response, error } = await api.GET('/api/data-export/{id}/download', { params: { path: { id: e.id! } }, parseAs: 'blob' });
  if (!response.ok || !blob) throw toApiError(response.status, error);
  const url = URL.createObjectURL(blob as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `export-${e.resources}-${e.id!.slice(0, 8)}.${e.format === 'csv' ? 'zip' : 'json'}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importData,
    onSuccess: () => client.invalidateQueries({ queryKey: ['applications'] }),
  });
}
