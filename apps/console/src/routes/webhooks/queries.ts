import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { toApiError } from '../../lib/errors';
import type { components } from '../../api/schema';

export type Webhook = components['schemas']['Webhook'];
export type CreatedWebhook = components['schemas']['CreatedWebhook'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookEvent = NonNullable<Webhook['events']>[number];

/** The events a webhook may subscribe to (the API's list, in the order the form shows them). */
export const EVENTS = [
  'message.received',
  'message.completed',
  'conversation.started',
  'conversation.archived',
  'application.created',
  'application.deleted',
  'plugin.activated',
  'plugin.deactivated',
  'api_key.revoked',
  'usage.limit_reached',
  'subscription.updated',
  'workflow.event',
  'experiment.decided',
] as const satisfies readonly WebhookEvent[];

// The form must offer every event the API accepts: an event added to the API and missing here fails the type check.
type MissingEvent = Exclude<WebhookEvent, (typeof EVENTS)[number]>;
const everyEventOffered: [MissingEvent] extends [never] ? true : MissingEvent = true;
void everyEventOffered;

const key = ['webhooks'] as const;

export function useWebhooks() {
  return useQuery({ queryKey: key, queryFn: () => data(api.GET('/api/webhooks', { params: { query: { limit: 100 } } })) });
}

/** One webhook; `null` when the caller has no such webhook (the API's 404). */
export function useWebhook(id: string) {
  return useQuery({
    queryKey: [...key, id],
    queryFn: async (): Promise<Webhook | null> => {
      const { data: body, error, response } = await api.GET('/api/webhooks/{id}', { params: { path: { id } } });
      if (response.status === 404) return null;
      if (!response.ok) throw toApiError(response.status, error);
      return body as Webhook;
    },
  });
}

/**
 * The delivery log, polled every 1.5 s (paused while the tab is hidden) while a delivery is being sent or
 * due again within a minute, and until `expectUntil` (a ping or retry just queued, whose attempt is coming).
 */
export function useDeliveries(id: string, expectUntil: number) {
  return useQuery({
    queryKey: [...key, id, 'deliveries'],
    queryFn: () => data(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 50 } } })),
    refetchInterval: (query) => (live(query.state.data) || Date.now() < expectUntil ? 1500 : false),
    refetchIntervalInBackground: false,
  });
}

/** The newest attempt of each delivery (the log lists attempts newest first). */
export function newestAttempts(attempts: WebhookDelivery[] | undefined): Set<string> {
  const seen = new Set<string>();
  const newest = new Set<string>();
  for (const a of attempts ?? []) {
    if (seen.has(a.deliveryId!)) continue;
    seen.add(a.deliveryId!);
    newest.add(a.id!);
  }
  return newest;
}

/** Whether some delivery is in flight: being sent, or due again within a minute. */
export function live(attempts: WebhookDelivery[] | undefined): boolean {
  const newest = newestAttempts(attempts);
  return (attempts ?? []).some(
    (a) => newest.has(a.id!) && (a.deliveryStatus === 'sending' || (a.deliveryStatus === 'pending' && (!a.nextRetryAt || new Date(a.nextRetryAt).getTime() - Date.now() < 60_000))),
  );
}

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; events: WebhookEvent[]; applicationId: string | null; description?: string }) => data(api.POST('/api/webhooks', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useUpdateWebhook(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { url?: string; events?: WebhookEvent[]; description?: string; enabled?: boolean }) => data(api.PUT('/api/webhooks/{id}', { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteWebhook(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.DELETE('/api/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useRotateSecret(id: string) {
  return useMutation({ mutationFn: () => data(api.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id } } })) });
}

export function useTestPing(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => data(api.POST('/api/webhooks/{id}/test', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, id] }),
  });
}

export function useRetryDelivery(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => data(api.POST('/api/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
