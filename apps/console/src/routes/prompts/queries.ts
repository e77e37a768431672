import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type PromptTemplate = components['schemas']['PromptTemplate'];
const key = ['prompts'] as const;

/** The placeholders of a template in order of first appearance, as the API reads them ({{name}} or {{ name }}). */
export function variablesOf(content: string): string[] {
  const found: string[] = [];
  for (const match of content.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g)) if (!found.includes(match[1]!)) found.push(match[1]!);
  return found;
}

export function useTemplates(applicationId: string | undefined) {
  return useQuery({
    queryKey: [...key, 'list', applicationId],
    enabled: !!applicationId,
    queryFn: () => data(api.GET('/api/prompts', { params: { query: { applicationId: applicationId!, page: 1, limit: 100 } } })),
  });
}

export function useSaveTemplate(applicationId: string | undefined, id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; content: string }) =>
      id ? data(api.PUT('/api/prompts/{id}', { params: { path: { id } }, body })) : data(api.POST('/api/prompts', { body: { ...body, applicationId: applicationId! } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useMakeDefault() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.PUT('/api/prompts/{id}/default', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/prompts/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useRender() {
  return useMutation({
    mutationFn: (body: { content: string; variables: Record<string, string> }) => data(api.POST('/api/prompts/render', { body })),
  });
}
