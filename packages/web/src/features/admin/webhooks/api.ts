import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminWebhookEndpoints, type WebhookDeliveryStatus, type WebhookEventType } from '@portal/contracts';
import { call } from '../../../lib/api';

const keys = {
  apps: ['admin', 'webhooks', 'apps'] as const,
  deliveries: (clientId: string, status: WebhookDeliveryStatus | undefined, before: string | undefined) => ['admin', 'webhooks', 'deliveries', clientId, status ?? null, before ?? null] as const,
};

export const useWebhookApps = () => useQuery({ queryKey: keys.apps, queryFn: () => call(adminWebhookEndpoints.list), retry: false });

export const DELIVERY_PAGE_SIZE = 25;

export const useDeliveries = (clientId: string | null, status: WebhookDeliveryStatus | undefined, before: string | undefined) =>
  useQuery({
    queryKey: keys.deliveries(clientId ?? '', status, before),
    queryFn: () => call(adminWebhookEndpoints.deliveries, { params: { clientId: clientId! }, query: { status, before, limit: DELIVERY_PAGE_SIZE } }),
    enabled: clientId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
    retry: false,
  });

/** Every change takes its reason; the list and the log are read again after it. */
function useWebhookChange<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'webhooks'] }),
  });
}

export const useSaveEndpoint = () =>
  useWebhookChange((input: { clientId: string; url: string; events: WebhookEventType[]; enabled: boolean; reason: string }) =>
    call(adminWebhookEndpoints.put, { params: { clientId: input.clientId }, body: { url: input.url, events: input.events, enabled: input.enabled, reason: input.reason } }, { handle: [400, 404] }),
  );

export const useRotateSecret = () =>
  useWebhookChange((input: { clientId: string; reason: string }) => call(adminWebhookEndpoints.rotateSecret, { params: { clientId: input.clientId }, body: { reason: input.reason } }, { handle: [404] }));

export const useRemoveEndpoint = () =>
  useWebhookChange((input: { clientId: string; reason: string }) => call(adminWebhookEndpoints.remove, { params: { clientId: input.clientId }, body: { reason: input.reason } }, { handle: [404] }));

export const useRedeliver = () =>
  useWebhookChange((input: { clientId: string; deliveryId: string; reason: string }) =>
    call(adminWebhookEndpoints.redeliver, { params: { clientId: input.clientId, deliveryId: input.deliveryId }, body: { reason: input.reason } }, { handle: [404, 409] }),
  );
