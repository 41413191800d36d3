import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /privacy: personal data and the outside apps (OAuth consents) allowed into the account. */
export function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('privacy.title')} description={t('privacy.description')} />
      <Section title={t('privacy.apps.title')} description={t('privacy.apps.description')} />
      <Section title={t('privacy.data.title')} description={t('privacy.data.description')} />
    </Stack>
  );
}
