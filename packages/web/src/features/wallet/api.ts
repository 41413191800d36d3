import { useQuery } from '@tanstack/react-query';
import { billingEndpoints, walletEndpoints, type EndpointInput, type WalletCurrency, type WalletTransactionStatus } from '@portal/contracts';
import { call } from '../../lib/api';

export interface TransactionQuery {
  page: number;
  page_size: number;
  direction?: 'in' | 'out';
  status?: WalletTransactionStatus;
}

export const walletKeys = {
  all: ['sso', 'me', 'wallet'] as const,
  transactions: (currency: WalletCurrency, query: TransactionQuery) => ['sso', 'me', 'wallet', currency, query] as const,
};

export const useBalances = () => useQuery({ queryKey: walletKeys.all, queryFn: () => call(walletEndpoints.balances) });
export const useTransactions = (currency: WalletCurrency, query: TransactionQuery) =>
  useQuery({ queryKey: walletKeys.transactions(currency, query), queryFn: () => call(walletEndpoints.transactions, { params: { currency }, query }) });
/**
 * The refusals of a transfer the form reports itself, in their own words (a 403 says which: a
 * declined re-authentication, two-step missing, where the policy's toast would only say
 * "permission"); any other status the API client's policy reports (once).
 */
export const transferRefusals: readonly number[] = [400, 403, 409, 503];
export const transfer = (currency: WalletCurrency, body: EndpointInput<typeof walletEndpoints.transfer>['body']) =>
  call(walletEndpoints.transfer, { params: { currency }, body }, { handle: [...transferRefusals] });

export const partnerKeys = { list: (currency: WalletCurrency) => ['sso', 'me', 'wallet', currency, 'partner-transfers'] as const };
/** Whether the server has a partner exchange configured, and the recent transfers to it. */
export const usePartnerTransfers = (currency: WalletCurrency) =>
  useQuery({ queryKey: partnerKeys.list(currency), queryFn: () => call(walletEndpoints.listPartnerTransfers, { params: { currency } }), staleTime: 60_000 });
/** A transfer to a partner exchange wallet: its refusals (a recipient it cannot take, limits, partner off) are shown by the form. */
export const partnerTransfer = (currency: WalletCurrency, body: EndpointInput<typeof walletEndpoints.createPartnerTransfer>['body']) =>
  call(walletEndpoints.createPartnerTransfer, { params: { currency }, body }, { handle: [...transferRefusals] });

export const depositKeys = { list: ['sso', 'me', 'wallet', 'VND', 'deposits'] as const };
export const useDeposits = () => useQuery({ queryKey: depositKeys.list, queryFn: () => call(walletEndpoints.listDeposits) });
/** A VND deposit order: its refusals (an amount out of range, too many waiting, deposits off) are shown in the dialog. */
export const createDeposit = (amount: string) => call(walletEndpoints.createDeposit, { body: { amount } }, { handle: [400, 503] });
/** A waiting order with its QR code again. */
export const fetchDeposit = (id: string) => call(walletEndpoints.getDeposit, { params: { id } });

export const withdrawalKeys = { list: ['sso', 'me', 'wallet', 'WHC', 'withdrawals'] as const };
/** The recent WHC withdrawals to BEP20 addresses; asked again every 10 s while one is pending. */
export const useWithdrawals = () =>
  useQuery({
    queryKey: withdrawalKeys.list,
    queryFn: () => call(walletEndpoints.listWithdrawals),
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.status === 'pending') ? 10_000 : false),
  });
/** A WHC withdrawal: its refusals (a wrong address, a new address's password, a code, chain off) are shown by the form. */
export const withdraw = (body: EndpointInput<typeof walletEndpoints.createWithdrawal>['body']) => call(walletEndpoints.createWithdrawal, { body }, { handle: [400, 409, 503] });

export const whcDepositKeys = { list: ['sso', 'me', 'wallet', 'WHC', 'deposits'] as const, address: ['sso', 'me', 'wallet', 'WHC', 'deposit-address'] as const };
/** The WHC deposits found to the person's address: asked again every 5 s while one waits for its confirmations, else every 15 s (a transfer may come at any time). */
export const useWhcDeposits = () =>
  useQuery({
    queryKey: whcDepositKeys.list,
    queryFn: () => call(walletEndpoints.listWhcDeposits),
    refetchInterval: (query) => (!query.state.data?.enabled ? false : query.state.data.items.some((item) => item.status === 'pending') ? 5_000 : 15_000),
  });
/** The person's deposit address (made by the server on the first request, the same ever after). */
export const useWhcDepositAddress = (enabled: boolean) =>
  useQuery({ queryKey: whcDepositKeys.address, queryFn: () => call(walletEndpoints.whcDepositAddress), enabled, staleTime: Infinity });

/** The person's cards and subscriptions, read for the wallet's summary (billing's page changes them; same cache keys). */
export const billingSummaryKeys = { cards: ['sso', 'me', 'cards'] as const, subscriptions: ['sso', 'me', 'subscriptions'] as const };
export const useCardSummary = () => useQuery({ queryKey: billingSummaryKeys.cards, queryFn: () => call(billingEndpoints.listCards) });
export const useSubscriptionSummary = () => useQuery({ queryKey: billingSummaryKeys.subscriptions, queryFn: () => call(billingEndpoints.listSubscriptions) });
