/** Company SSO's refusals (server module company-sso). The spec's words where it has them ('SSO identifier invalid'). */
export const companySsoErrors = {
  'sso.identifier_invalid': { status: 400, message: 'SSO identifier invalid' },
  'sso.required': { status: 403, message: 'Your organization requires single sign-on (SSO). Sign in with your company SSO instead' },
  'sso.state_invalid': { status: 400, message: 'This SSO sign-in took too long or was started in another browser. Please try again' },
  'sso.idp_unavailable': { status: 502, message: "Your organization's identity provider cannot be reached. Please try again later" },
  'sso.response_invalid': { status: 400, message: "Your organization's identity provider sent an answer that cannot be accepted" },
  'sso.email_missing': { status: 400, message: "Your organization's identity provider did not send your email address" },
  'sso.domain_not_verified': { status: 403, message: 'Your organization has not verified the domain of {email}, so it cannot sign in with SSO. Ask your administrator' },
  'sso.account_unverified': { status: 403, message: 'An account for {email} exists but its email is not verified. Activate it or sign in to it first' },
  'sso.member_elsewhere': { status: 403, message: '{email} is in another Enterprise' },
} as const;
