import type { MfaChallengeResponse, TokenResponse } from '@portal/contracts';
import { runAuthentication } from '../../components/passkey/ceremony';
import { api } from '../../lib/api';

/**
 * Passkey sign-in (spec section 7): request options for discoverable credentials (no
 * username: the browser offers the passkeys it holds for this site), the browser's prompt,
 * then POST /sso/users/webauthn/auth with the assertion as `response`. A user-verified
 * passkey counts as both factors and answers {token} (the session cookie is set);
 * otherwise, with two-step on, the second-factor challenge.
 */
export const passkeyAuthOptions = () => api.post<Record<string, unknown>>('/sso/users/webauthn/auth/options', {}, { handle: 'all' });

export async function signInWithPasskey(options: Record<string, unknown>, useBrowserAutofill = false): Promise<TokenResponse | MfaChallengeResponse> {
  const response = await runAuthentication(options, useBrowserAutofill);
  return api.post<TokenResponse | MfaChallengeResponse>('/sso/users/webauthn/auth', { response }, { handle: [400, 403, 404, 429] });
}
