/** The wallet's refusals. */
export const walletErrors = {
  'wallet.amount_invalid': { status: 400, message: 'Enter an amount above zero, with at most the currency’s decimals' },
  'wallet.insufficient_balance': { status: 400, message: 'Your balance is too low for this transfer' },
  'wallet.recipient_not_found': { status: 400, message: 'No account has this email or username' },
  'wallet.recipient_self': { status: 400, message: 'You cannot transfer to yourself' },
  'wallet.over_transfer_limit': { status: 400, message: 'This transfer is above the limit of {limit} a transfer' },
  'wallet.over_daily_limit': { status: 400, message: 'This transfer would pass your daily limit of {limit}' },
  'wallet.idempotency_conflict': { status: 409, message: 'This transfer key was already used for another transfer' },
  'wallet.deposit_amount_invalid': { status: 400, message: 'Enter a whole amount from {min} to {max}' },
  'wallet.deposit_orders_limit': { status: 400, message: 'You have {count} deposit orders waiting for payment: pay one or wait until it expires' },
  'wallet.deposits_unavailable': { status: 503, message: 'Deposits by bank transfer are not available now' },
  'wallet.bank_signature_invalid': { status: 401, message: 'Invalid bank notification signature' },
  'wallet.chain_unavailable': { status: 503, message: 'Transfers to BEP20 addresses are not available now' },
  'wallet.address_invalid': { status: 400, message: 'Enter a BEP20 address: 0x and 40 hexadecimal digits, with its upper- and lower-case letters as given' },
  'wallet.password_required': { status: 400, message: 'This is your first transfer to this address: enter your password too' },
  'wallet.whc_deposits_unavailable': { status: 503, message: 'WHC deposits are not available now' },
} as const;
