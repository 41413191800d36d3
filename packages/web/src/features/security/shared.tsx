import { Center } from '@mantine/core';
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

/** "Chrome on macOS", with 'Unknown' for what the server could not tell. */
export function useSessionLabel(): (session: SessionInfo) => { browser: string; device: string } {
  const { t } = useTranslation();
  return (session) => ({
    browser: session.browser || t('securityCenter.devices.unknown'),
    device: session.device || t('securityCenter.devices.unknown'),
  });
}
