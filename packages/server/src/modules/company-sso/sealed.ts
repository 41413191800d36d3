import type { Clock } from '../../platform/clock';
import type { DataProtection } from '../../platform/data-protection';
import type { AuthorizationSecrets } from '../federation';

// What company SSO keeps in the browser between two requests, sealed (encrypted and
// authenticated with the data key): a started sign-in, and a link its owner must confirm.

/** How long a started sign-in (OIDC cookie, SAML request) and a SAML handoff code live. */
export const START_TTL_SECONDS = 10 * 60;
export const HANDOFF_TTL_SECONDS = 2 * 60;

/** The cookie that binds a started OpenID Connect sign-in to this browser: state, PKCE verifier and nonce, sealed. */
export const SSO_STATE_COOKIE = 'portal_sso';
export const SSO_STATE_MAX_AGE = START_TTL_SECONDS;

export interface StartedSignIn extends AuthorizationSecrets {
  organizationId: string;
  expiresAt: number;
}

/** A started SAML sign-in, sealed in the same cookie: its handoff code is taken only in this browser. */
export interface StartedSamlSignIn {
  samlRequestId: string;
  expiresAt: number;
}

/** How long a link an existing account's owner must confirm waits in their browser. */
export const PENDING_LINK_TTL_SECONDS = 15 * 60;
/** The cookie that keeps that link (sealed) until its owner has signed in and confirms it. */
export const SSO_LINK_COOKIE = 'portal_sso_link';
export const SSO_LINK_MAX_AGE = PENDING_LINK_TTL_SECONDS;

export interface PendingLink {
  organizationId: string;
  organizationName: string;
  subject: string;
  email: string;
  expiresAt: number;
}

/** Opens a value sealed here: undefined when it is missing, not ours, tampered with or expired. */
export function sealedReader(secrets: DataProtection, clock: Clock) {
  return function openSealed<T extends { expiresAt: number }>(sealed: string | undefined): T | undefined {
    try {
      const value = sealed && secrets.isSealed(sealed) ? (JSON.parse(secrets.open(sealed)) as T) : undefined;
      return value && value.expiresAt >= clock.now().getTime() ? value : undefined;
    } catch {
      return undefined;
    }
  };
}
