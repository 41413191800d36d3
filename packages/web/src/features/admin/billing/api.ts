import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminBillingEndpoints } from '@portal/contracts';
import { call } from '../../../lib/api';

export const useOrders = (q: string) =>
  useQuery({ queryKey: ['admin', 'billing', 'orders', q], queryFn: () => call(adminBillingEndpoints.searchOrders, { query: { q: q || undefined } }, { handle: [400] }), retry: false });

export const usePromoCodes = () => useQuery({ queryKey: ['admin', 'billing', 'promo'], queryFn: () => call(adminBillingEndpoints.listPromoCodes, {}) });
export const useLicenses = () => useQuery({ queryKey: ['admin', 'billing', 'licenses'], queryFn: () => call(adminBillingEndpoints.listLicenses, {}) });

/** After a change, the lists it touched are asked again. */
function useRefresh(key: string) {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ['admin', 'billing', key] });
}

export function useRefund() {
  const refresh = useRefresh('orders');
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => call(adminBillingEndpoints.refundOrder, { params: { id }, body: { reason } }, { handle: [400, 404, 409] }),
    onSettled: refresh,
  });
}

export function useCreatePromo() {
  const refresh = useRefresh('promo');
  return useMutation({
    mutationFn: (body: Parameters<typeof call<typeof adminBillingEndpoints.createPromoCode>>[1]['body']) => call(adminBillingEndpoints.createPromoCode, { body }, { handle: [400, 409] }),
    onSuccess: refresh,
  });
}

export function useDisablePromo() {
  const refresh = useRefresh('promo');
  return useMutation({
    mutationFn: ({ code, reason }: { code: string; reason: string }) => call(adminBillingEndpoints.disablePromoCode, { params: { code }, body: { reason } }, { handle: [400, 404] }),
    onSuccess: refresh,
  });
}

export const useIssueLicenses = () =>
  useMutation({
    mutationFn: (body: { plan: string; count: number; reason: string }) => call(adminBillingEndpoints.issueLicenses, { body }, { handle: [400] }),
  });

export function useRevokeLicense() {
  const refresh = useRefresh('licenses');
  return useMutation({
    mutationFn: (body: { code: string; reason: string }) => call(adminBillingEndpoints.revokeLicense, { body }, { handle: [400, 409] }),
    onSuccess: refresh,
  });
}
