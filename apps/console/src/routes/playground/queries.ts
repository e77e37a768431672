import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';

export type Conversation = components['schemas']['Conversation'];
export type Message = components['schemas']['Message'];
export type ProviderInfo = components['schemas']['ProviderInfo'];

export function useProviders() {
  return useQuery({ queryKey: ['providers'], queryFn: () => data(api.GET('/api/providers')), staleTime: 5 * 60_000 });
}

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
