import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type Workflow = components['schemas']['Workflow'];
export type WorkflowStep = components['schemas']['WorkflowStep'];
export type WorkflowRun = components['schemas']['WorkflowRun'];
export type WorkflowRunStep = components['schemas']['WorkflowRunStep'];
export type RunWithSteps = WorkflowRun & { steps?: WorkflowRunStep[] };
export type Template = components['schemas']['ApplicationTemplate'];
export type DeployedTemplate = components['schemas']['DeployedTemplate'];

/** What the editor sends (create and change take the same fields; create also names the application). */
export interface WorkflowDraft {
  name: string;
  description: string;
  steps: WorkflowStep[];
  allowedHosts: string[];
}

const key = ['workflows'] as const;
const FINISHED = new Set(['completed', 'failed', 'cancelled']);
export const isFinished = (status: string | undefined) => FINISHED.has(status ?? '');
/** Live runs are polled this often until they finish (as the knowledge area polls processing documents). */
const LIVE_MS = 1000;

export function useWorkflows(applicationId: string) {
  return useQuery({
    queryKey: [...key, 'list', applicationId],
    queryFn: () => data(api.GET('/api/workflows', { params: { query: { applicationId, limit: 100 } } })),
  });
}

export function useWorkflow(id: string) {
  return useQuery({ queryKey: [...key, 'one', id], queryFn: () => data(api.GET('/api/workflows/{id}', { params: { path: { id } } })) });
}

export function useSaveWorkflow(id: string | null, applicationId: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (draft: WorkflowDraft) =>
      id
        ? data(api.PUT('/api/workflows/{id}', { params: { path: { id } }, body: draft }))
        : data(api.POST('/api/workflows', { body: { ...draft, applicationId: applicationId! } })),
    onSuccess: (saved) => {
      client.setQueryData([...key, 'one', saved.id], saved);
      return client.invalidateQueries({ queryKey: [...key, 'list'] });
    },
  });
}

export function useDeleteWorkflow() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/workflows/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function usePauseWorkflow(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pause: boolean) =>
      pause
        ? data(api.POST('/api/workflows/{id}/pause', { params: { path: { id } } }))
        : data(api.POST('/api/workflows/{id}/resume', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useTrigger(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: unknown) => data(api.POST('/api/workflows/{id}/trigger', { params: { path: { id } }, body: { input } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'runs', id] }),
  });
}

/** A workflow's runs, newest first; polled while one of them is queued or running. */
export function useRuns(workflowId: string, page: number) {
  return useQuery({
    queryKey: [...key, 'runs', workflowId, page],
    queryFn: () => data(api.GET('/api/workflows/{id}/runs', { params: { path: { id: workflowId }, query: { page, limit: 20 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.some((r) => !isFinished(r.status)) ? LIVE_MS : false),
    refetchIntervalInBackground: false,
  });
}

/** One run with its steps; polled until it finishes. */
export function useRun(runId: string) {
  return useQuery({
    queryKey: [...key, 'run', runId],
    queryFn: () => data(api.GET('/api/workflows/runs/{runId}', { params: { path: { runId } } })) as Promise<RunWithSteps>,
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data.status) ? false : LIVE_MS),
    refetchIntervalInBackground: false,
  });
}

export function useCancelRun(workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => data(api.POST('/api/workflows/runs/{runId}/cancel', { params: { path: { runId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useTemplates() {
  return useQuery({ queryKey: ['templates'], queryFn: () => data(api.GET('/api/templates')) });
}

export function useDeployTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name?: string }) => data(api.POST('/api/templates/{id}/deploy', { params: { path: { id } }, body: name ? { name } : {} })),
    onSuccess: () => client.invalidateQueries(),
  });
}

/**
 * Whether the caller may change, run, pause or delete the workflows of an application: its owner may, and in a
 * team Members and above; a Viewer only reads. The API stays the authority (its 403); this only explains.
 */
export function useWriteAccess(applicationId: string | null | undefined): { canWrite: boolean; role: string | null } {
  const app = useQuery({
    queryKey: ['applications', 'one', applicationId],
    queryFn: () => data(api.GET('/api/applications/{id}', { params: { path: { id: applicationId! } } })),
    enabled: !!applicationId,
  });
  const teamId = app.data?.teamId ?? null;
  const teams = useQuery({
    queryKey: ['teams', 'mine'],
    queryFn: () => data(api.GET('/api/teams', { params: { query: { limit: 100 } } })),
    enabled: !!teamId,
  });
  if (!teamId) return { canWrite: true, role: null };
  const role = teams.data?.find((t) => t.id === teamId)?.role ?? null;
  return { canWrite: role !== 'viewer', role };
}
