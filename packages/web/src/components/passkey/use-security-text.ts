import { useEffect, useState } from 'react';
import { i18n, loadSecurityCatalogue } from '../../lib/i18n';

const isLoaded = () => i18n.exists('auth.emailCode.title') && i18n.exists('passkeys.signIn');

/**
 * Whether the `security` part of the catalogue (passkey and email-code sign-in texts) is
 * there; asks for it once when not. The public pieces that use it render nothing until
 * then, so no bare key can show.
 */
export function useSecurityText(): boolean {
  const [ready, setReady] = useState(isLoaded);
  useEffect(() => {
    if (ready) return;
    let current = true;
    loadSecurityCatalogue().then(
      () => current && setReady(true),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [ready]);
  return ready;
}
