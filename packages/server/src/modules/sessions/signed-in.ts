import type { MfaChallengeResponse } from '@portal/contracts';
import type { UserRow } from '../users';

/**
 * How a person proved who they are, as RFC 8176 names it for an ID token's `amr`: pwd (a
 * password), otp (a mailed or authenticator code, a recovery code), hwk (a passkey's key),
 * user (the passkey verified the user: PIN or biometrics), mfa (more than one factor).
 */
/** RFC 8176 methods, `social`: an outside identity provider (Google, GitHub...) vouched for the person, and `sso`: the organization's own identity provider did (company SSO). */
export type AuthMethod = 'pwd' | 'otp' | 'hwk' | 'user' | 'mfa' | 'social' | 'sso';

/** The end of a sign-in: a new session, who it is for, and how they authenticated when. */
export interface SignedIn {
  token: string;
  user: UserRow;
  /** The factors this sign-in used (RFC 8176), for the OIDC provider's `amr`. */
  amr: AuthMethod[];
  /** When the person authenticated, for the OIDC provider's `auth_time`. */
  authTime: Date;
}

/** What every way in answers: a session, or the second-factor step when two-step is on. */
export type SignInResult = SignedIn | MfaChallengeResponse;
