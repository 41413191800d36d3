import { safeRedirect } from './redirects';

/**
 * Paths of the web app (the spec's routes), declared once: the web route table, the server
 * (links in mail, redirects, SPA fallback) and end-to-end tests all build URLs from these.
 */
export const paths = {
  // Signed-in shell
  home: '/',
  account: '/account',
  apiKeys: '/api-keys',
  email: '/email',
  privacy: '/privacy',
  wallet: '/wallet',
  walletVnd: '/wallet/vnd',
  walletWhc: '/wallet/whc',
  /** The USD balance (the spec's currencies; the spec names no path, so it follows /wallet/vnd). */
  walletUsd: '/wallet/usd',
  /** The researcher's payout settings: the wallet rewards are paid into, rewards waiting, statements, public profile. */
  walletPayout: '/wallet/payout',
  /** Payment methods, subscriptions, checkout, orders and invoices (billing; the spec shows no path). */
  billing: '/billing',
  /** The organization (enterprise) of the signed-in member: members, roles, invitations. */
  organization: '/organization',
  /** The audit log of the organization the signed-in user administers. */
  organizationAuditLog: '/organization/audit-log',
  /** The organization's company SSO: identity provider, require-SSO, verified domains (owners and admins). */
  organizationSso: '/organization/sso',
  /** Confirm linking the signed-in account to the organization's identity provider that named its email. */
  organizationSsoLink: '/organization/sso/link',
  security: '/security',
  securityDeviceActivity: '/security/device-activity',
  securityPassword: '/security/password',
  securityTwoStep: '/security/two-step-verification',
  securityWebauthn: '/security/webauthn',

  // Sign-in
  login: '/login',
  loginPassword: '/login/password',
  loginQuick: '/login/quick',
  loginQuickApp: '/login/quick-app',
  loginSso: '/login/sso',
  loginExplore: '/login/explore',

  // Sign-up
  register: '/register',
  registerLockerEnterpriseTrial: '/register/locker-enterprise-trial',
  registerLockerEnterpriseTrialSuccess: '/register/locker-enterprise-trial/success',
  registerVerifyingEmail: '/register/verifying-email',
  registerWithId: '/register/:id',
  createUser: '/create-user',

  // Recovery and result screens (tokens are optional path segments)
  forgot: '/forgot',
  resetPassword: '/reset-pwd/:token?',
  confirmation: '/confirmation/:token?',
  confirmationApp: '/confirmation/app/:token?',
  confirmationEducationEmail: '/confirmation/education-email/:token?',
  /** The result screen of an organization (or moderator) invitation for a person with an account. */
  confirmationInvitation: '/confirmation/invitation/:token?',
  /** The spec's "moderator invitation activation" result screen: a website's moderator invitation, for a person with an account. */
  confirmationModerator: '/confirmation/moderator/:token?',

  // Flows and system pages
  authenticate: '/authenticate',
  callback: '/callback',
  callbackApp: '/callback-app',
  captcha: '/captcha',
  oauthAuthorize: '/o/authorize',
  ssoRedirect: '/sso/redirect',
  maintenance: '/maintenance',
  serverError: '/server-error',
  /** A researcher's public profile (display name, accepted programs), when they turned it on. */
  researcher: '/researchers/:username',

  // The operators' console (operators only: everyone else sees the not-found page)
  admin: '/admin',
  /** A console page and what it shows: /admin/people, /admin/people/<id>, /admin/wallet/accounts/<id>. */
  adminPage: '/admin/:section/:item?/:detail?',
} as const;

export type PathName = keyof typeof paths;

/** Query parameter carrying where to return after sign-in (`/login?next=/security`). */
export const NEXT_PARAM = 'next';

/**
 * `next` values are followed only when they are paths on this site (the in-app return after
 * sign-in): safeRedirect's checks with no origin allowed, so absolute URLs never pass.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  const safe = safeRedirect(value, [], 'null');
  return safe?.startsWith('/') ? safe : null;
}

/** `/login`, or `/login?next=<path>` when there is somewhere other than home to return to. */
export function loginPathFor(returnTo: string): string {
  const next = safeNextPath(returnTo);
  return next && next !== paths.home ? `${paths.login}?${NEXT_PARAM}=${encodeURIComponent(next)}` : paths.login;
}

function withToken(base: string, token: string): string {
  return `${base}/${encodeURIComponent(token)}`;
}

/** Links sent by mail. */
export const resetPasswordPath = (token: string) => withToken('/reset-pwd', token);
export const confirmationPath = (token: string) => withToken('/confirmation', token);
export const appConfirmationPath = (token: string) => withToken('/confirmation/app', token);
export const educationEmailConfirmationPath = (token: string) => withToken('/confirmation/education-email', token);
export const invitationConfirmationPath = (token: string) => withToken('/confirmation/invitation', token);
export const invitationSignUpPath = (token: string) => withToken('/register', token);
export const moderatorConfirmationPath = (token: string) => withToken('/confirmation/moderator', token);

const pagePatterns = Object.values(paths).map(
  (pattern) =>
    new RegExp(
      `^${pattern
        .split('/')
        .map((segment) => (segment.startsWith(':') ? (segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+') : segment ? `/${segment}` : ''))
        .join('')}/?$`,
    ),
);

/** Whether a pathname is a page of the route table; the server answers 404 for the rest. */
export function isPagePath(pathname: string): boolean {
  return pathname === '/' || pagePatterns.some((pattern) => pattern.test(pathname));
}
