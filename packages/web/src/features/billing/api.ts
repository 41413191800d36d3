import { useQuery } from '@tanstack/react-query';
import { billingEndpoints, endpointPath, type EndpointInput, type Order } from '@portal/contracts';
import { apiUrl, call } from '../../lib/api';
import { currentDeviceId } from '../../lib/device-id';

export const billingKeys = {
  config: ['billing', 'config'] as const,
  cards: ['sso', 'me', 'cards'] as const,
  subscriptions: ['sso', 'me', 'subscriptions'] as const,
  orders: ['sso', 'me', 'orders'] as const,
};

export const useBillingConfig = () => useQuery({ queryKey: billingKeys.config, queryFn: () => call(billingEndpoints.config), staleTime: Infinity });
export const useCards = () => useQuery({ queryKey: billingKeys.cards, queryFn: () => call(billingEndpoints.listCards) });
export const useSubscriptions = () => useQuery({ queryKey: billingKeys.subscriptions, queryFn: () => call(billingEndpoints.listSubscriptions) });
export const useOrders = () => useQuery({ queryKey: billingKeys.orders, queryFn: () => call(billingEndpoints.listOrders) });

/** The sandbox processor's tokenization: the card number goes there, never to billing. */
export const tokenizeCard = (body: EndpointInput<typeof billingEndpoints.sandboxToken>['body']) => call(billingEndpoints.sandboxToken, { body }, { handle: [400] });
/** With Stripe: a SetupIntent's client secret for the Payment Element. */
export const createCardSetup = () => call(billingEndpoints.cardSetup, {}, { handle: [404, 503] });
export const addCard = (body: EndpointInput<typeof billingEndpoints.addCard>['body']) => call(billingEndpoints.addCard, { body }, { handle: [400, 402] });
export const removeCard = (id: string) => call(billingEndpoints.removeCard, { params: { id } });
export const setDefaultCard = (id: string) => call(billingEndpoints.setDefaultCard, { params: { id } });
export const quote = (body: EndpointInput<typeof billingEndpoints.quote>['body']) => call(billingEndpoints.quote, { body }, { handle: [400, 404] });
export const subscribe = (body: EndpointInput<typeof billingEndpoints.subscribe>['body']) => call(billingEndpoints.subscribe, { body }, { handle: [400, 402, 409] });
export const changeSubscription = (id: string, body: EndpointInput<typeof billingEndpoints.changeSubscription>['body']) =>
  call(billingEndpoints.changeSubscription, { params: { id }, body }, { handle: [400, 402, 409] });
export const cancelSubscription = (id: string) => call(billingEndpoints.cancelSubscription, { params: { id } });
export const resumeSubscription = (id: string) => call(billingEndpoints.resumeSubscription, { params: { id } });

/** Downloads an order's invoice PDF (with the session cookie) as a file. */
export async function downloadInvoice(order: Pick<Order, 'id' | 'number'>): Promise<void> {
  const deviceId = currentDeviceId();
  const response = await fetch(apiUrl(endpointPath(billingEndpoints.invoice, { id: order.id })), {
    credentials: 'include',
    headers: deviceId ? { 'device-id': deviceId } : {},
  });
  if (!response.ok) throw new Error(`invoice ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `invoice-${order.number}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A fresh idempotency key per attempt: a retried request (double click, network retry) charges once. */
export const newIdempotencyKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
