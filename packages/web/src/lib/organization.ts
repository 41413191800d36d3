import { useQuery } from '@tanstack/react-query';
import { organizationEndpoints } from '@portal/contracts';
import { ApiError, call } from './api';

/** The signed-in member's organization: the organization page's query, read again after the page's changes (features/organizations/api.ts). */
export const organizationQueryKey = ['sso', 'me', 'organization'] as const;

/** null when the account is in no organization (404 organizations.not_member, handled here: not an error to show). */
export async function fetchMyOrganization() {
  try {
    return await call(organizationEndpoints.mine, undefined, { handle: [404] });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'organizations.not_member') return null;
    throw error;
  }
}

export const useMyOrganization = () => useQuery({ queryKey: organizationQueryKey, queryFn: fetchMyOrganization, staleTime: 60_000 });
