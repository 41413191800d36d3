import '@mantine/core/styles/Alert.css';
import { Alert, Center } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionInfo } from './api';
import { LoadingIndicator } from '../../components/LoadingIndicator';

export { useLanguage } from '../../lib/use-language';

export function Loading() {
  return (
    <Center py="xl">
      <LoadingIndicator />
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
