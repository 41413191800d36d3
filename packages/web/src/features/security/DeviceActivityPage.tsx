import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /security/device-activity: sessions and recent sign-ins, with revoke. */
export function DeviceActivityPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('security.deviceActivity.title')} description={t('security.deviceActivity.description')} />
      <Section title={t('security.deviceActivity.sessions')} description={t('security.deviceActivity.sessionsDescription')} />
    </Stack>
  );
}
