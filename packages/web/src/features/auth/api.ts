import { firstPaintRoutes, type authEndpoints, type MfaChallengeResponse, type SignInRequest } from '@portal/contracts';
import { call } from '../../lib/api';

/**
 * The server sets the session cookie (httpOnly) and the display-name
 * cookie, or, when the account has two-step verification, answers the second-factor
 * challenge instead. The page shows every refusal itself: wrong password, captcha needed,
 * not activated (403), too many tries (429).
 */
export const signIn = (body: SignInRequest) => call<typeof authEndpoints.signIn>(firstPaintRoutes.signIn, { body }, { handle: [400, 403, 429] });

export const isMfaChallenge = (answer: unknown): answer is MfaChallengeResponse =>
  typeof answer === 'object' && answer !== null && (answer as { mfa_required?: unknown }).mfa_required === true;
