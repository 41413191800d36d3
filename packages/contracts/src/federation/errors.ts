/** Social sign-in's refusals (server module federation). The failed code exchange is the spec's 1002 (auth/errors.ts). */
export const socialErrors = {
  'social.provider_unavailable': { status: 400, message: 'This sign-in method is not available' },
  'social.state_invalid': { status: 400, message: 'This sign-in took too long or was started in another browser. Try again' },
  'social.account_exists': { status: 400, message: 'An account with this email already exists. Sign in to it, then link {provider} on the Security page' },
  'social.linked_elsewhere': { status: 400, message: 'This {provider} account is already linked to another account' },
  'social.already_linked': { status: 400, message: 'A {provider} account is already linked to yours' },
  'social.not_linked': { status: 400, message: 'This sign-in method is not linked to your account' },
  'social.last_method': { status: 400, message: 'This is your only way to sign in. Set a password or add a passkey first' },
  'social.signup_expired': { status: 400, message: 'This sign-up took too long. Start again' },
} as const;
