import {
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { passkeysSupported } from './support';

/**
 * The browser half of a passkey ceremony (@simplewebauthn/browser): the server's options
 * JSON in, the credential JSON out, posted back as `response`. What went wrong on the
 * browser's side is told apart from the server's refusal: a cancelled prompt is not a
 * failure to shout about.
 */

export type CeremonyProblem = 'cancelled' | 'exists' | 'unsupported' | 'failed';

export class CeremonyError extends Error {
  constructor(
    readonly problem: CeremonyProblem,
    readonly cause?: unknown,
  ) {
    super(`passkey ceremony: ${problem}`);
    this.name = 'CeremonyError';
  }
}

export { passkeysSupported } from './support';

function problemOf(error: unknown): CeremonyProblem {
  if (error instanceof WebAuthnError) {
    if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'exists';
    if (error.code === 'ERROR_CEREMONY_ABORTED') return 'cancelled';
  }
  const name = (error as { name?: unknown } | null)?.name;
  // NotAllowedError: the person closed the prompt, or it timed out; AbortError: we cancelled it.
  if (name === 'NotAllowedError' || name === 'AbortError') return 'cancelled';
  if (name === 'InvalidStateError') return 'exists';
  return 'failed';
}

export async function runRegistration(optionsJSON: unknown): Promise<RegistrationResponseJSON> {
  if (!passkeysSupported()) throw new CeremonyError('unsupported');
  try {
    return await startRegistration({ optionsJSON: optionsJSON as PublicKeyCredentialCreationOptionsJSON });
  } catch (error) {
    throw new CeremonyError(problemOf(error), error);
  }
}

export async function runAuthentication(optionsJSON: unknown, useBrowserAutofill = false): Promise<AuthenticationResponseJSON> {
  if (!passkeysSupported()) throw new CeremonyError('unsupported');
  try {
    return await startAuthentication({ optionsJSON: optionsJSON as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill });
  } catch (error) {
    throw new CeremonyError(problemOf(error), error);
  }
}

/** Stop a pending ceremony (the autofill request waiting in the username field). */
export const cancelCeremony = (): void => WebAuthnAbortService.cancelCeremony();
