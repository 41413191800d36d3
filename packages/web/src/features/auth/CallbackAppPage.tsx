import '@mantine/core/styles/Alert.css';
import { useEffect, useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isPrivateUseRedirect, isRegisteredAppRedirect, oauthEndpoints } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { call } from '../../lib/api';
import { setBusy } from '../../lib/app-state';
import { BackToLogin } from './BackToLogin';

/** The app's address from the fragment (`#to=`), when it is a native app's private scheme, and the app it is for (`client_id`). */
export function appTargetOf(hash: string): { target: string; clientId: string } | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const target = fragment.get('to');
  const clientId = fragment.get('client_id');
  return target && clientId && isPrivateUseRedirect(target) ? { target, clientId } : null;
}

/**
 * /callback-app: where the provider sends an answer meant for a desktop app's private-scheme
 * redirect URI. The page hands it to the app and keeps the busy loader's "Open the desktop
 * app" link in case the browser does not follow; the address bar forgets the code at once.
 * Anyone can link here, so the target is opened only when it is one of the named app's
 * registered redirect URIs (the server's list); any other scheme or app is refused.
 */
export function CallbackAppPage({ go = (url: string) => location.assign(url) }: { go?: (url: string) => void }) {
  const { t } = useTranslation();
  const { hash, pathname } = useLocation();
  const [handOff] = useState(() => appTargetOf(hash));
  const [refused, setRefused] = useState(handOff === null);

  useEffect(() => {
    if (!handOff) return;
    history.replaceState(history.state, '', pathname);
    call(oauthEndpoints.appRedirects, { params: { client_id: handOff.clientId } }, { handle: 'all' }).then(
      ({ redirect_uris }) => {
        if (!isRegisteredAppRedirect(handOff.target, redirect_uris)) return setRefused(true);
        setBusy(true, { pendingDesktopApp: handOff.target });
        go(handOff.target);
      },
      () => setRefused(true),
    );
    // Once: the code in the fragment is single use.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!refused) return <PageHeader title={t('auth.callbackApp.title')} description={t('auth.callbackApp.description')} />;
  return (
    <Stack gap="md">
      <PageHeader title={t('auth.callbackApp.title')} description={t('auth.callbackApp.description')} />
      <Alert color="red" variant="light" role="alert" data-testid="callback-app-error">
        {t('auth.callbackApp.invalid')}
      </Alert>
      <BackToLogin />
    </Stack>
  );
}
