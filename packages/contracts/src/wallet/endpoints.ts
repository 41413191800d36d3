import { z } from 'zod';
import {
  bankNotificationResultSchema,
  chainWithdrawalListSchema,
  chainWithdrawalRequestSchema,
  chainWithdrawalSchema,
  depositOrderCreatedSchema,
  depositOrderListSchema,
  depositRequestSchema,
  partnerNotificationResultSchema,
  partnerTransferListSchema,
  partnerTransferRequestSchema,
  partnerTransferSchema,
  walletBalancesSchema, walletCurrencySchema, walletTransactionListSchema, walletTransactionQuerySchema,
  walletTransactionSchema,
  walletTransferRequestSchema,
} from './schemas';
import { whcDepositAddressSchema, whcDepositListSchema } from './whc-deposit-schemas';
import { endpointGroups, endpointIn } from '../endpoint';

/** The signed-in user's wallet: balances, transactions, transfers to other accounts. */
const { anyone, signedIn, sensitive } = endpointGroups('wallet');
const currencyParams = z.object({ currency: walletCurrencySchema });
/** Two-step on and a current code (WHC), and the rate limit. */
const codeErrors = ['auth.two_factor_required', 'auth.code_invalid', 'auth.recovery_code_invalid', 'rate_limited'] as const;
/** Money leaving the portal (a withdrawal, a partner transfer): the amount, the balance, the limits, a reused idempotency key. */
const sendingErrors = ['wallet.amount_invalid', 'wallet.insufficient_balance', 'wallet.over_transfer_limit', 'wallet.over_daily_limit', 'wallet.idempotency_conflict'] as const;

export const balances = endpointIn(signedIn, 'GET /sso/me/wallet', 'The balances in USD, VND and WHC (integer minor units)', {
  response: walletBalancesSchema,
});

export const transactions = endpointIn(signedIn, 'GET /sso/me/wallet/{currency}/transactions', 'A page of the movements of one currency, newest first, filtered by direction and status', {
  params: currencyParams, query: walletTransactionQuerySchema, response: walletTransactionListSchema,
});

export const transfer = endpointIn(sensitive, 'POST /sso/me/wallet/{currency}/transfers', 'Transfer to another account of this portal by email or username (instant, applied once per idempotency key); needs a recent proof of identity; WHC needs two-step on and a current code', {
  params: currencyParams, body: walletTransferRequestSchema, status: 201, response: walletTransactionSchema,
  errors: [
    'wallet.amount_invalid',
    'wallet.insufficient_balance',
    'wallet.recipient_not_found',
    'wallet.recipient_self',
    'wallet.over_transfer_limit',
    'wallet.over_daily_limit',
    'wallet.idempotency_conflict',
    ...codeErrors,
  ],
});

export const createWithdrawal = endpointIn(sensitive, 'POST /sso/me/wallet/WHC/withdrawals', 'Send WHC to a BEP20 address (EIP-55 checksum checked): a recent proof of identity, two-step on, a current code every time, the password for a first withdrawal to an address; debited at once, pending until the token transfer is confirmed on chain (completed) or reverted (failed, the amount returned); applied once per idempotency key', {
  body: chainWithdrawalRequestSchema, status: 201, response: chainWithdrawalSchema,
  errors: ['wallet.chain_unavailable', 'wallet.address_invalid', ...sendingErrors, 'wallet.password_required', 'auth.password_not_valid', ...codeErrors],
});

export const listWithdrawals = endpointIn(signedIn, 'GET /sso/me/wallet/WHC/withdrawals', 'The 20 newest WHC withdrawals to BEP20 addresses with their status and transaction hash, and whether this server sends them at all', {
  response: chainWithdrawalListSchema,
});

export const createDeposit = endpointIn(signedIn, 'POST /sso/me/wallet/VND/deposits', 'A VND deposit order by bank transfer: a reference to write in the transfer, the VietQR payload and its image, the bank account; credited once the bank reports the amount and reference', {
  body: depositRequestSchema, status: 201, response: depositOrderCreatedSchema,
  errors: ['wallet.deposit_amount_invalid', 'wallet.deposit_orders_limit', 'wallet.deposits_unavailable'],
});

export const listDeposits = endpointIn(signedIn, 'GET /sso/me/wallet/VND/deposits', 'The recent VND deposit orders, newest first, with their status', {
  response: depositOrderListSchema,
});

export const getDeposit = endpointIn(signedIn, 'GET /sso/me/wallet/VND/deposits/{id}', 'One of the VND deposit orders, with what to transfer again (the VietQR payload and image, the bank account)', {
  params: z.object({ id: z.uuid() }), response: depositOrderCreatedSchema, errors: ['not_found', 'wallet.deposits_unavailable'],
});

export const bankNotification = endpointIn(anyone, 'POST /wallet/bank-notifications', 'The bank\'s notification of an incoming transfer, signed (x-bank-signature: t=<unix>,v1=<HMAC-SHA256 hex of "<t>.<raw body>">, 5 minutes): credits the pending order whose reference and amount it matches, once per transaction_id', {
  response: bankNotificationResultSchema, errors: ['wallet.bank_signature_invalid', 'wallet.deposits_unavailable'],
});

export const whcDepositAddress = endpointIn(signedIn, 'POST /sso/me/wallet/WHC/deposit-address', 'The signed-in person\'s BEP20 address for WHC deposits (made on the first request, the same ever after) with its QR code; token transfers to it are credited once after the configured confirmations', {
  response: whcDepositAddressSchema, errors: ['wallet.whc_deposits_unavailable'],
});

export const listWhcDeposits = endpointIn(signedIn, 'GET /sso/me/wallet/WHC/deposits', 'The 20 newest token transfers found to the person\'s deposit address: pending (with its confirmations so far), completed or ignored; and whether this server takes WHC deposits', {
  response: whcDepositListSchema,
});

export const createPartnerTransfer = endpointIn(sensitive, 'POST /sso/me/wallet/{currency}/partner-transfers', 'Transfer to a partner exchange wallet by the recipient\'s email, phone or username there (a recent proof of identity needed): debited at once, pending until the partner\'s signed callback (or its answer when asked by the transfer id) says completed or rejected (the amount and the daily allowance returned, only then); applied once per idempotency key; WHC needs two-step on and a current code', {
  params: currencyParams, body: partnerTransferRequestSchema, status: 201, response: partnerTransferSchema,
  errors: ['wallet.partner_unavailable', 'wallet.partner_recipient_invalid', ...sendingErrors, ...codeErrors],
});

export const listPartnerTransfers = endpointIn(signedIn, 'GET /sso/me/wallet/{currency}/partner-transfers', 'The 20 newest transfers to partner exchange wallets in the currency, with their status, and whether this server has a partner configured', {
  params: currencyParams, response: partnerTransferListSchema,
});

export const partnerNotification = endpointIn(anyone, 'POST /wallet/partner-notifications', 'The partner exchange\'s callback on a transfer, signed (x-partner-signature: t=<unix>,v1=<HMAC-SHA256 hex of "<t>.<raw body>">, 5 minutes): completes it, or rejects it and returns the amount, once', {
  response: partnerNotificationResultSchema, errors: ['wallet.partner_signature_invalid', 'wallet.partner_unavailable', 'not_found'],
});
