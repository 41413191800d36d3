import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { payoutEndpoints, type PayoutSettings, type ResearcherProfile, type WalletCurrency } from '@portal/contracts';
import { ApiError, call } from '../../../lib/api';

export const payoutKeys = { settings: ['sso', 'me', 'wallet', 'payout'] as const };

export const usePayoutSettings = () => useQuery({ queryKey: payoutKeys.settings, queryFn: () => call(payoutEndpoints.payoutSettings) });

/** Saves the payout wallet; a sign-in older than a few minutes first asks for the password (the shell's dialog). The page words the failure (silent). */
export function useSetPayoutMethod() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (currency: WalletCurrency) => call(payoutEndpoints.setPayoutMethod, { body: { payout_currency: currency } }, { silent: true }),
    onSuccess: (saved: PayoutSettings) => client.setQueryData(payoutKeys.settings, saved),
  });
}

export function useSetProfilePublic() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profilePublic: boolean) => call(payoutEndpoints.setResearcherProfile, { body: { profile_public: profilePublic } }, { silent: true }),
    onSuccess: (saved: PayoutSettings) => client.setQueryData(payoutKeys.settings, saved),
  });
}

/** A researcher's public profile; null when there is none or it is off (404, worded by the page). Public pages have no query client: a plain call. */
export async function fetchResearcherProfile(username: string): Promise<ResearcherProfile | null> {
  try {
    return await call(payoutEndpoints.researcherProfile, { params: { username } }, { handle: [400, 404] });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}
