import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../lib/runtime-context';

export function AppFooter() {
  const { t } = useTranslation();
  const { mainSiteUrl } = useRuntimeConfig();
  return (
    <Group component="footer" justify="space-between" gap="xs" py="md">
      <Text size="xs" c="dimmed">
        {t('layout.footer', { year: new Date().getFullYear() })}
      </Text>
      <Anchor href={mainSiteUrl} size="xs" c="dimmed">
        {t('layout.mainSite')}
      </Anchor>
    </Group>
  );
}
