import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../lib/app-state';
import classes from './BusyLoader.module.css';
import { Spinner } from './Spinner';

/**
 * The full-screen loader's body (BusyGate mounts it, lazily, while the busy flag is on): the app's busy flag is on (a sign-in finishing, a hand-off
 * to the desktop app). When the desktop app is opening, its link stays offered in case the
 * browser did not pass it on.
 */
export function BusyLoaderView() {
  const desktopAppLink = useAppState((state) => state.busyOptions.pendingDesktopApp);
  const { t } = useTranslation();

  return (
    <div className={classes.overlay} data-testid="busy-loader" role="status" aria-live="polite">
      <Stack align="center" gap="md">
        <Spinner />
        <Text>{t('app.busy.label')}</Text>
        {desktopAppLink && <Anchor href={desktopAppLink}>{t('app.busy.openDesktopApp')}</Anchor>}
      </Stack>
    </div>
  );
}
