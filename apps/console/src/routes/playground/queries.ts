import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type Conversation = components['schemas']['Conversation'];
export type Message = components['schemas']['Message'];
export type ProviderInfo = components['schemas']['ProviderInfo'];

export function useConversations(applicationId: string | undefined) {
  return useQuery({
    queryKey: ['conversations', 'list', applicationId],
    queryFn: () => data(api.GET('/api/conversations', { params: { query: { applicationId: applicationId!, limit: 50 } } })),
    enabled: !!applicationId,
  });
}

export function useConversation(id: string | undefined) {
  return useQuery({
    queryKey: ['conversations', 'one', id],
    queryFn: () => data(api.GET('/api/conversations/{id}', { params: { path: { id: id! } } })),
    enabled: !!id,
  });
}

export function useStartConversation() {
  return useMutation({ mutationFn: (applicationId: string) => data(api.POST('/api/conversations', { body: { applicationId } })) });
}

export function useRateAnswer(conversationId: string | undefined) {
  return useMutation({
    mutationFn: ({ messageId, rating }: { messageId: string; rating: number }) =>
      data(api.POST('/api/conversations/{id}/messages/{messageId}/rating', { params: { path: { id: conversationId!, messageId } }, body: { rating } })),
  });
}

/** Renames a conversation (`PATCH /api/conversations/:id`); the list and the conversation are read again. */
export function useRenameConversation(applicationId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => data(api.PATCH('/api/conversations/{id}', { params: { path: { id } }, body: { title } })),
    onSuccess: (_, { id }) =>
      Promise.all([client.invalidateQueries({ queryKey: ['conversations', 'list', applicationId] }), client.invalidateQueries({ queryKey: ['conversations', 'one', id] })]),
  });
}
