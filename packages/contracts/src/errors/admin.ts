/** The operators' console and admin API under /v3/admin (modules/operators and each area's admin routes). */
export const adminErrors = {
  'admin.forbidden': { status: 403, message: 'This is for operators of the portal with another role' },
  'admin.two_factor_required': { status: 403, message: 'Turn on two-step verification on your account to use the operators’ console' },
  'admin.not_found': { status: 404, message: 'Not found' },
  'admin.reason_required': { status: 400, message: 'Give a reason of 3 to 500 characters: it goes into the operator audit log' },
  'admin.scope_missing': { status: 403, message: 'This operator API key does not hold the scope {scope}' },
  'admin.account_not_found': { status: 404, message: 'No activated account has this email' },
  'admin.last_owner': { status: 409, message: 'The portal needs at least one owner: make another account an owner first' },
  'admin.key_limit_reached': { status: 400, message: 'You can have at most {max} operator API keys. Revoke one first' },
  'admin.cursor_invalid': { status: 400, message: 'This page link is not valid: start again from the first page' },
  'admin.person_already_activated': { status: 409, message: 'This account is already activated' },
  'admin.person_two_factor_off': { status: 409, message: 'Two-step verification is not on for this account' },
  'admin.person_deletion_pending': { status: 409, message: 'This account is already scheduled for deletion' },
  // Organizations, billing and wallet in the console.
  'admin.promo_exists': { status: 409, message: 'A promo code with this name exists already' },
  'admin.promo_invalid': { status: 400, message: '{detail}' },
  'admin.license_redeemed': { status: 409, message: 'This licence code was redeemed already: it cannot be revoked' },
  'admin.order_not_refundable': { status: 409, message: 'Only a paid order can be refunded' },
  'admin.order_already_refunded': { status: 409, message: 'This order was refunded already' },
  'admin.payout_nothing_due': { status: 409, message: 'This researcher has no approved rewards waiting in this currency' },
  'admin.payout_method_missing': { status: 409, message: 'This researcher has not chosen a payout method: their rewards wait until they do' },
} as const;
