/** Account self-service: profile, emails, picture, deletion. */
export const accountErrors = {
  'account.deletion_pending': { status: 403, message: 'This account is scheduled for deletion on {date}' },
  'account.confirmation_mismatch': { status: 400, message: 'Type {word} to confirm' },
  'account.avatar_invalid': { status: 400, message: 'Choose a PNG, JPEG or WebP image of at most 5 MB' },
  'account.email_link_invalid': { status: 400, message: 'This confirmation link has expired or has already been used' },
  'account.username_taken': { status: 400, message: 'This username is already taken' },
  'account.same_email': { status: 400, message: 'This is already your email address' },
  'account.recovery_same_as_email': { status: 400, message: 'Enter a recovery email other than your email address' },
} as const;
