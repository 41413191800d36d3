import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminWalletEndpoints, type WalletCurrency } from '@portal/contracts';
import { call } from '../../../lib/api';

export const usePayoutQueue = (enabled: boolean) =>
  useQuery({ queryKey: ['admin', 'wallet', 'payouts'], queryFn: () => call(adminWalletEndpoints.payoutQueue, {}), enabled });

export function usePayoutAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, userId, currency, reason }: { action: 'approvePayout' | 'holdPayout'; userId: string; currency: WalletCurrency; reason: string }) =>
      call(adminWalletEndpoints[action], { params: { user_id: userId, currency }, body: { reason } }, { handle: [400, 409] }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['admin', 'wallet'] }),
  });
}

export const useLedgerAccounts = (owner: string) =>
  useQuery({
    queryKey: ['admin', 'wallet', 'accounts', owner],
    queryFn: () => call(adminWalletEndpoints.ledgerAccounts, { query: { owner } }, { handle: [400, 404] }),
    enabled: owner.length > 0,
    retry: false,
  });

export const useLedgerEntries = (accountId: string | null, cursor: string | undefined) =>
  useQuery({
    queryKey: ['admin', 'wallet', 'entries', accountId, cursor ?? null],
    queryFn: () => call(adminWalletEndpoints.ledgerEntries, { params: { id: accountId! }, query: { cursor } }, { handle: [404] }),
    enabled: accountId !== null,
    retry: false,
  });
