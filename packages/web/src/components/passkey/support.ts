/**
 * Whether the browser has WebAuthn, without loading @simplewebauthn (what its
 * browserSupportsWebAuthn checks): the sign-in page decides to show its passkey button
 * before any ceremony code is fetched.
 */
export const passkeysSupported = (): boolean => {
  try {
    return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
  } catch {
    return false;
  }
};

/** Whether the browser offers passkeys in an input's autofill (conditional mediation). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  const check = (window.PublicKeyCredential as { isConditionalMediationAvailable?: () => Promise<boolean> }).isConditionalMediationAvailable;
  if (typeof check !== 'function') return false;
  return check.call(window.PublicKeyCredential).catch(() => false);
}

/** A ceremony's CeremonyError (components/passkey/ceremony.ts) for a cancelled prompt, told without loading that module. */
export const isCancelledCeremony = (error: unknown): boolean =>
  error instanceof Error && error.name === 'CeremonyError' && (error as { problem?: unknown }).problem === 'cancelled';
