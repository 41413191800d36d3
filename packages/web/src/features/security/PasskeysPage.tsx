import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /security/webauthn: passkeys (WebAuthn credentials). */
export function PasskeysPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('security.passkeys.title')} description={t('security.passkeys.description')} />
      <Section title={t('security.passkeys.list')} description={t('security.passkeys.listDescription')} />
    </Stack>
  );
}
