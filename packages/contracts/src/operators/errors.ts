/** The operators' console and admin API under /v3/admin (modules/operators and each area's admin routes). */
export const adminErrors = {
  'admin.forbidden': { status: 403, message: 'This is for operators of the portal with another role' },
  'admin.two_factor_required': { status: 403, message: 'Turn on two-step verification on your account to use the operators’ console' },
  'admin.not_found': { status: 404, message: 'Not found' },
  'admin.reason_required': { status: 400, message: 'Enter a reason of 3 to 500 characters: it goes into the operator audit log' },
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
  // Apps and signing keys in the console.
  'admin.app_first_party': { status: 409, message: 'This is a first-party app: its settings come from its file, not from the console' },
  'admin.app_public': { status: 409, message: 'This app is public (a single-page or native app): it has no secret to rotate' },
  'admin.app_settings_invalid': { status: 400, message: 'These settings are not valid for an app: {detail}' },
  'admin.logo_invalid': { status: 400, message: 'Choose a PNG, JPEG or WebP logo of at most 5 MB' },
  'admin.logo_unreachable': { status: 400, message: 'The logo could not be fetched from this address' },
  'admin.key_signing': { status: 409, message: 'This key signs tokens now: rotate now first, then drop it' },
  // Events to products in the console.
  'admin.webhook_not_allowed': { status: 409, message: 'The person no longer allows this app to learn this: the event cannot be sent again' },
} as const;
