import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The honest state of a route whose feature is not built yet: it says so, instead of a page
 * that looks finished and does nothing. Its README line says so too; the page drops it when
 * its issue lands.
 */
export function NotAvailableYet() {
  const { t } = useTranslation();
  return (
    <Text
      component="div"
      role="status"
      data-testid="not-available-yet"
      p="md"
      bg="var(--mantine-color-gray-0)"
      bd="1px solid var(--mantine-color-gray-3)"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Text fw={600}>{t('notAvailable.title')}</Text>
      <Text size="sm" c="dimmed">
        {t('notAvailable.body')}
      </Text>
    </Text>
  );
}
