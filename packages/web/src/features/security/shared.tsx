import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Loader.css';
import { Alert, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionInfo } from './api';

export { useLanguage } from '../../lib/use-language';

export function Loading() {
  return (
    <Center py="xl">
      <Loader size="sm" aria-label="…" />
    </Center>
  );
}

export function LoadFailed({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" role="alert">
      {message}
    </Alert>
  );
}

/** "Chrome on macOS", with 'Unknown' for what the server could not tell. */
export function useSessionLabel(): (session: SessionInfo) => { browser: string; device: string } {
  const { t } = useTranslation();
  return (session) => ({
    browser: session.browser || t('securityCenter.devices.unknown'),
    device: session.device || t('securityCenter.devices.unknown'),
  });
}
