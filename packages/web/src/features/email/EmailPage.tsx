import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /email: the primary and the recovery email. */
export function EmailPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('email.title')} description={t('email.description')} />
      <Section title={t('email.primary.title')} description={t('email.primary.description')} />
      <Section title={t('email.recovery.title')} description={t('email.recovery.description')} />
    </Stack>
  );
}
