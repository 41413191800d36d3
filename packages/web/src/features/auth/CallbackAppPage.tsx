import '@mantine/core/styles/Alert.css';
import { useEffect, useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isPrivateUseRedirect } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { setBusy } from '../../lib/app-state';
import { BackToLogin } from './BackToLogin';

/** The app's address from the fragment (`#to=`), when it is a native app's private scheme. */
export function appTargetOf(hash: string): string | null {
  const target = new URLSearchParams(hash.replace(/^#/, '')).get('to');
  return target && isPrivateUseRedirect(target) ? target : null;
}

/**
 * /callback-app: where the provider sends an answer meant for a desktop app's private-scheme
 * redirect URI (sign-ins of any kind, social ones included). The page hands it to the app and
 * keeps the busy loader's "Open the desktop app" link in case the browser does not follow;
 * the address bar forgets the code at once. Anything but a private scheme is refused here.
 */
export function CallbackAppPage({ go = (url: string) => location.assign(url) }: { go?: (url: string) => void }) {
  const { t } = useTranslation();
  const { hash, pathname } = useLocation();
  const [target] = useState(() => appTargetOf(hash));

  useEffect(() => {
    if (!target) return;
    history.replaceState(history.state, '', pathname);
    setBusy(true, { pendingDesktopApp: target });
    go(target);
    // Once: the code in the fragment is single use.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (target) return <PageHeader title={t('auth.callbackApp.title')} description={t('auth.callbackApp.description')} />;
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
