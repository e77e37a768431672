import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type DataExport = components['schemas']['DataExport'];
export type ImportedApplication = components['schemas']['ImportedApplication'];
export type ExportRequest = { resources: 'all' | 'applications' | 'conversations' | 'analytics'; format: 'json' | 'csv' };

const key = ['data-export'] as const;
const done = (e: DataExport | undefined) => e?.status === 'ready' || e?.status === 'failed';

export function useRequestExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ExportRequest) => data(api.POST('/api/data-export', { body })),
    onSuccess: (created) => client.setQueryData([...key, created.id], created),
  });
}

/** The exports asked for on this page, each polled every second until ready or failed. */
export function useExports(ids: string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: [...key, id],
      queryFn: () => data(api.GET('/api/data-export/{id}', { params: { path: { id } } })),
      refetchInterval: (q: { state: { data?: DataExport } }) => (done(q.state.data) ? false : 1000),
      refetchIntervalInBackground: false,
    })),
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
    mutationFn: (body: { applications: ImportedApplication[] }) => data(api.POST('/api/data-import', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['applications'] }),
  });
}
