import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { components } from '../../../api/session-api';
import type { Mode } from '../../mode/hooks/use-mode';

const PAGE_SIZE = 20;
/** The log is read again this often: attempts arrive from webhook-dispatcher, not from this page. */
const LOG_POLL_MS = 5000;

export const useWebhook = (mode: Mode) =>
  useQuery({ queryKey: ['webhook', mode], queryFn: () => unwrap(api.GET('/console/api/webhook', { params: { query: { mode } } })) });

export type WebhookEventType = components['schemas']['DeliveryViewDto']['event_type'];
export const EVENT_TYPES: WebhookEventType[] = ['batch.completed', 'webhook.test'];

export const useDeliveries = (mode: Mode, before: string | undefined, type: WebhookEventType | undefined) =>
  useQuery({
    queryKey: ['webhook', mode, 'deliveries', type, before],
    queryFn: () => unwrap(api.GET('/console/api/webhook/deliveries', { params: { query: { mode, before, type, limit: PAGE_SIZE } } })),
    placeholderData: keepPreviousData,
    refetchInterval: LOG_POLL_MS,
  });

/** One attempt with the request it sent and the first bytes of the answer; it never changes once recorded. */
export const useDelivery = (mode: Mode, id: string) =>
  useQuery({
    queryKey: ['webhook', mode, 'delivery', id],
    queryFn: () => unwrap(api.GET('/console/api/webhook/deliveries/{id}', { params: { path: { id }, query: { mode } } })),
    staleTime: Infinity,
  });

/** Registration, secret rotation, removal and redelivery; each refreshes the endpoint and its log. */
export function useWebhookActions(mode: Mode) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['webhook', mode] });
  const query = { mode };
  return {
    register: useMutation({ mutationFn: (url: string) => unwrap(api.PUT('/console/api/webhook', { params: { query }, body: { url } })), onSuccess: refresh }),
    rotate: useMutation({ mutationFn: () => unwrap(api.POST('/console/api/webhook/rotate-secret', { params: { query } })), onSuccess: refresh }),
    remove: useMutation({ mutationFn: () => unwrap(api.DELETE('/console/api/webhook', { params: { query } })), onSuccess: refresh }),
    redeliver: useMutation({
      mutationFn: (id: string) => unwrap(api.POST('/console/api/webhook/deliveries/{id}/redeliver', { params: { path: { id }, query } })),
      onSuccess: refresh,
    }),
    sendTest: useMutation({ mutationFn: () => unwrap(api.POST('/console/api/webhook/test', { params: { query } })), onSuccess: refresh }),
  };
}
