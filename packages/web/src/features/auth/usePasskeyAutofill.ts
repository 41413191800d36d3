import { useEffect, useRef } from 'react';
import type { MfaChallengeResponse, TokenResponse } from '@portal/contracts';
import { browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser';
import { cancelCeremony, CeremonyError } from '../../components/passkey/ceremony';
import { passkeyAuthOptions, signInWithPasskey } from './passkey-sign-in';

export interface PasskeyAutofillHandlers {
  /** The server answered: a session ({token}) or the second-factor challenge. */
  onAnswer(answer: TokenResponse | MfaChallengeResponse): void;
  /** The passkey was chosen but the sign-in failed (not cancelled). */
  onError(error: unknown): void;
}

/**
 * Conditional mediation: while the sign-in page is open, the browser offers the site's
 * passkeys in the autofill of the identifier input (`autocomplete="username webauthn"`).
 * Picking one signs in without typing anything. Cancelled when the page goes, or when the
 * passkey button starts a modal ceremony (one ceremony at a time).
 */
export function usePasskeyAutofill(enabled: boolean, handlers: PasskeyAutofillHandlers, round = 0): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    void (async () => {
      try {
        if (!(await browserSupportsWebAuthnAutofill())) return;
        // No options (the server is busy, say): no autofill offer, and nothing to tell.
        const options = await passkeyAuthOptions().catch(() => null);
        if (!active || !options) return;
        const answer = await signInWithPasskey(options, true);
        if (active) latest.current.onAnswer(answer);
      } catch (error) {
        // Cancelled (the page went, or the button took over): nothing to say.
        if (!active || (error instanceof CeremonyError && error.problem === 'cancelled')) return;
        latest.current.onError(error);
      }
    })();
    return () => {
      active = false;
      cancelCeremony();
    };
    // `round`: start again after the passkey button's own ceremony took over.
  }, [enabled, round]);
}
