import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /api-keys: personal API keys, each limited to its scopes. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('apiKeys.title')} description={t('apiKeys.description')} />
      <Section title={t('apiKeys.list.title')} description={t('apiKeys.list.description')} />
    </Stack>
  );
}
