import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminOrganizationEndpoints } from '@portal/contracts';
import { call } from '../../../lib/api';

export const useOrganizationSearch = (q: string) =>
  useQuery({ queryKey: ['admin', 'organizations', 'search', q], queryFn: () => call(adminOrganizationEndpoints.searchOrganizations, { query: { q: q || undefined } }, { handle: [400] }), retry: false });

export const useOrganization = (id: string) =>
  useQuery({ queryKey: ['admin', 'organizations', 'one', id], queryFn: () => call(adminOrganizationEndpoints.getOrganization, { params: { id } }, { handle: [400, 404] }), retry: false });

export function useVerifyDomain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ domain, reason }: { domain: string; reason: string }) => call(adminOrganizationEndpoints.verifyDomainByHand, { params: { id, domain }, body: { reason } }, { handle: [400, 404, 409] }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'organizations'] }),
  });
}
