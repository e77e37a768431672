import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { toApiError } from '../../lib/errors';

export type Dataset = components['schemas']['EvaluationDataset'];
export type Item = components['schemas']['EvaluationItem'];
export type Run = components['schemas']['EvaluationRun'];
export type Result = components['schemas']['EvaluationResult'];
export type Comparison = components['schemas']['EvaluationComparison'];
export type Evaluator = components['schemas']['Evaluator'];
export type Target = components['schemas']['EvaluationTarget'];

const key = ['evaluations'] as const;
/** How often runs are polled while one is running. */
export const POLL_MS = 1000;

export function useDatasets(appId: string) {
  return useQuery({ queryKey: [...key, appId, 'datasets'], queryFn: () => data(api.GET('/api/applications/{appId}/datasets', { params: { path: { appId } } })) });
}

export function useDataset(appId: string, datasetId: string | undefined) {
  return useQuery({
    queryKey: [...key, appId, 'dataset', datasetId],
    enabled: !!datasetId,
    queryFn: () => data(api.GET('/api/applications/{appId}/datasets/{datasetId}', { params: { path: { appId, datasetId: datasetId! } } })),
  });
}

export function useCreateDataset(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => data(api.POST('/api/applications/{appId}/datasets', { params: { path: { appId } }, body: { name } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, appId] }),
  });
}

export function useAddItem(appId: string, datasetId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (item: { message: string; expected: string; tags: string[] }) =>
      data(
        api.POST('/api/applications/{appId}/datasets/{datasetId}/items', {
          params: { path: { appId, datasetId: datasetId! } },
          body: { items: [{ input: { message: item.message }, expected: item.expected || null, tags: item.tags }] },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, appId] }),
  });
}

export function useRemoveItem(appId: string, datasetId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (itemId: string) => {
      const { error, response } = await api.DELETE('/api/applications/{appId}/datasets/{datasetId}/items/{itemId}', { params: { path: { appId, datasetId: datasetId!, itemId } } });
      if (!response.ok) throw toApiError(response.status, error);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, appId] }),
  });
}

export function useImport(appId: string, datasetId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const { data: body, error, response } = await api.POST('/api/applications/{appId}/datasets/{datasetId}/import', {
        params: { path: { appId, datasetId: datasetId! } },
        body: { file: file as unknown as string },
        bodySerializer: () => {
          const form = new FormData();
          form.append('file', file, file.name);
          return form;
        },
      });
      if (!response.ok) throw toApiError(response.status, error);
      return body as Dataset & { added: Item[] };
    },
    onSettled: () => client.invalidateQueries({ queryKey: [...key, appId] }),
  });
}

export function useRuns(appId: string) {
  return useQuery({
    queryKey: [...key, appId, 'runs'],
    queryFn: () => data(api.GET('/api/applications/{appId}/evaluations', { params: { path: { appId } } })),
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'running') ? POLL_MS : false),
  });
}

export function useStartRun(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { datasetId: string; targets: Target[]; evaluators: Evaluator[]; passThreshold: number | null }) =>
      data(api.POST('/api/applications/{appId}/evaluations', { params: { path: { appId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, appId, 'runs'] }),
  });
}

export function useCancelRun(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => data(api.POST('/api/applications/{appId}/evaluations/{runId}/cancel', { params: { path: { appId, runId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, appId, 'runs'] }),
  });
}

export function useResults(appId: string, run: Run | undefined) {
  return useQuery({
    queryKey: [...key, appId, 'results', run?.id, run?.finished],
    enabled: !!run?.id,
    queryFn: () => data(api.GET('/api/applications/{appId}/evaluations/{runId}/results', { params: { path: { appId, runId: run!.id! } } })),
  });
}

export function useCompare(appId: string) {
  return useMutation({
    mutationFn: (q: { runA: string; targetA: number; runB: string; targetB: number }) =>
      data(api.GET('/api/applications/{appId}/evaluations/compare', { params: { path: { appId }, query: q } })),
  });
}

/** The versions of each of the application's model configs, for the targets' choice. */
export function useConfigVersions(appId: string) {
  return useQuery({
    queryKey: [...key, appId, 'versions'],
    queryFn: async () => {
      const configs = await data(api.GET('/api/model-configs', { params: { query: { applicationId: appId, page: 1, limit: 100 } } }));
      const list = (Array.isArray(configs) ? configs : []) as Array<{ _id?: string; name?: string; displayName?: string }>;
      const all = await Promise.all(
        list.map(async (c) => {
          const versions = (await data(api.GET('/api/model-configs/{configId}/versions', { params: { path: { configId: c._id! } } }))) as Array<{ _id?: string; version?: string; label?: string }>;
          return versions.map((v) => ({ id: v._id!, config: c.displayName ?? c.name ?? '', label: v.label ? `${v.version} · ${v.label}` : (v.version ?? '') }));
        }),
      );
      return all.flat();
    },
  });
}

/** Fetches a run's results per question, target and check with the session's token, and hands them to the browser as a file. */
export async function downloadResults(appId: string, runId: string, format: 'csv' | 'json'): Promise<void> {
  const { data: blob, response, error } = await api.GET('/api/applications/{appId}/evaluations/{runId}/export', { params: { path: { appId, runId }, query: { format } }, parseAs: 'blob' });
  if (!response.ok || !blob) throw toApiError(response.status, error);
  const url = URL.createObjectURL(blob as Blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `evaluation.${format}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
