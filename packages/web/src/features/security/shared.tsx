import type { ReactNode } from 'react';
import { Center } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionInfo } from './api';
import { FailureAlert } from '../../components/FailureAlert';
import { LoadingIndicator } from '../../components/LoadingIndicator';

export { useLanguage } from '../../lib/use-language';

export function Loading() {
  return (
    <Center py="xl">
      <LoadingIndicator />
    </Center>
  );
}

/** What a page shows of a query: the loader while it is read, `failure` if it could not be, then its data. */
export function Loaded<T>({ query, failure, children }: { query: { isPending: boolean; data: T | undefined }; failure: string; children(data: T): ReactNode }) {
  if (query.isPending) return <Loading />;
  if (!query.data) return <FailureAlert failure={failure} />;
  return <>{children(query.data)}</>;
}

/** "Chrome on macOS", with 'Unknown' for what the server could not tell. */
export function useSessionLabel(): (session: SessionInfo) => { browser: string; device: string } {
  const { t } = useTranslation();
  return (session) => ({
    browser: session.browser || t('security.devices.unknown'),
    device: session.device || t('security.devices.unknown'),
  });
}
