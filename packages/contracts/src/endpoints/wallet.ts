import { z } from 'zod';
import { walletBalancesSchema, walletCurrencySchema, walletTransactionListSchema, walletTransactionQuerySchema, walletTransactionSchema, walletTransferRequestSchema } from '../api/wallet';
import { endpoint } from '../endpoint';

/** The signed-in user's wallet: balances, transactions, transfers to other accounts. */
const tag = 'wallet';
const currencyParams = z.object({ currency: walletCurrencySchema });

export const balances = endpoint({
  method: 'GET',
  path: '/sso/me/wallet',
  tag,
  auth: 'session',
  summary: 'The balances in USD, VND and WHC (integer minor units)',
  response: walletBalancesSchema,
});

export const transactions = endpoint({
  method: 'GET',
  path: '/sso/me/wallet/{currency}/transactions',
  tag,
  auth: 'session',
  summary: 'A page of the movements of one currency, newest first, filtered by direction and status',
  params: currencyParams,
  query: walletTransactionQuerySchema,
  response: walletTransactionListSchema,
});

export const transfer = endpoint({
  method: 'POST',
  path: '/sso/me/wallet/{currency}/transfers',
  tag,
  auth: 'session',
  summary: 'Transfer to another account of this portal by email or username (instant, applied once per idempotency key); WHC needs two-step on and a current code',
  params: currencyParams,
  body: walletTransferRequestSchema,
  status: 201,
  response: walletTransactionSchema,
  errors: [
    'wallet.amount_invalid',
    'wallet.insufficient_balance',
    'wallet.recipient_not_found',
    'wallet.recipient_self',
    'wallet.over_transfer_limit',
    'wallet.over_daily_limit',
    'wallet.idempotency_conflict',
    'auth.two_factor_required',
    'auth.code_invalid',
    'auth.recovery_code_invalid',
    'rate_limited',
  ],
});
