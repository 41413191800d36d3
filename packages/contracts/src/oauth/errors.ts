/** The OpenID Connect provider's `/v3` calls (consent, connected apps, device sign-in). The OAuth endpoints themselves speak OAuth's error format. */
export const oauthErrors = {
  'oauth.request_expired': { status: 404, message: 'This sign-in request has expired or was already answered. Go back to the app and start again' },
  'oauth.app_not_found': { status: 404, message: 'This app is not connected to your account' },
} as const;
