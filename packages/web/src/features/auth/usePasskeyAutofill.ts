import { useEffect, useRef } from 'react';
import type { MfaChallengeResponse, TokenResponse } from '@portal/contracts';
import { isCancelledCeremony, passkeyAutofillSupported } from '../../components/passkey/support';
import { cancelPasskeyCeremony, loadPasskeyCeremony, passkeyAuthOptions, signInWithPasskey } from './passkey-sign-in';

export interface PasskeyAutofillHandlers {
  /** The server answered: a session ({token}) or the second-factor challenge. */
  onAnswer(answer: TokenResponse | MfaChallengeResponse): void;
  /** The passkey was chosen but the sign-in failed (not cancelled). */
  onError(error: unknown): void;
}

/**
 * Conditional mediation: while the sign-in page is open, the browser offers the site's
 * passkeys in the autofill of the identifier input (`autocomplete="username webauthn"`).
 * Picking one signs in without typing anything. Only where the browser says it has
 * conditional mediation, and once `enabled` (the sign-in page turns it on at the visitor's
 * first use of the identifier field), are the options fetched and the ceremony code loaded. Cancelled when the page goes, or when the passkey button starts a
 * modal ceremony (one ceremony at a time).
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
        if (!(await passkeyAutofillSupported())) return;
        if (!active) return;
        // No options (the server is busy, say): no autofill offer, and nothing to tell.
        const [options] = await Promise.all([passkeyAuthOptions().catch(() => null), loadPasskeyCeremony()]);
        if (!active || !options) return;
        const answer = await signInWithPasskey(options, true);
        if (active) latest.current.onAnswer(answer);
      } catch (error) {
        // Cancelled (the page went, or the button took over): nothing to say.
        if (!active || isCancelledCeremony(error)) return;
        latest.current.onError(error);
      }
    })();
    return () => {
      active = false;
      cancelPasskeyCeremony();
    };
    // `round`: start again after the passkey button's own ceremony took over.
  }, [enabled, round]);
}
