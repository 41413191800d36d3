import { firstPaintRoutes, type passkeyEndpoints } from '@portal/contracts';
import { call } from '../../lib/api';

/**
 * Passkey sign-in (the spec's call list): request options for discoverable credentials (no
 * username: the browser offers the passkeys it holds for this site), the browser's prompt,
 * then POST /sso/users/webauthn/auth with the assertion as `response`. A user-verified
 * passkey counts as both factors and answers {token} (the session cookie is set);
 * otherwise, with two-step on, the second-factor challenge.
 *
 * The ceremony code (@simplewebauthn/browser) loads with the first ceremony, not with the
 * sign-in page.
 */
export const passkeyAuthOptions = () => call<typeof passkeyEndpoints.authOptions>(firstPaintRoutes.passkeyAuthOptions, { body: {} }, { handle: 'all' });

type Ceremony = typeof import('../../components/passkey/ceremony');
let ceremony: Ceremony | undefined;
export const loadPasskeyCeremony = async (): Promise<Ceremony> => (ceremony ??= await import('../../components/passkey/ceremony'));

export async function signInWithPasskey(options: Record<string, unknown>, useBrowserAutofill = false) {
  const response = await (await loadPasskeyCeremony()).runAuthentication(options, useBrowserAutofill);
  return call<typeof passkeyEndpoints.authenticate>(firstPaintRoutes.passkeyAuthenticate, { body: { response: { ...response } } }, { handle: [400, 403, 404, 429] });
}

/** Stop a pending ceremony (the autofill request waiting in the username field); none when the code never loaded. */
export const cancelPasskeyCeremony = (): void => ceremony?.cancelCeremony();
