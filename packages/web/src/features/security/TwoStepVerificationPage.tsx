import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /security/two-step-verification: codes by authenticator app or by email. */
export function TwoStepVerificationPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('security.twoStep.title')} description={t('security.twoStep.description')} />
      <Section title={t('security.twoStep.app')} description={t('security.twoStep.appDescription')} />
      <Section title={t('security.twoStep.email')} description={t('security.twoStep.emailDescription')} />
    </Stack>
  );
}
