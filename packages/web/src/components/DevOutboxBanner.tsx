import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../lib/app-state';

/**
 * On every page while the server keeps mail in its dev outbox instead of sending it (no SMTP,
 * development, listening on localhost): nobody should mistake this for a real deployment, and
 * a developer learns where the codes and links went.
 */
export function DevOutboxBanner() {
  const { t } = useTranslation();
  const dev = useAppState((state) => state.dev);
  if (!dev) return null;
  return (
    <Text role="status" data-testid="dev-outbox-banner" size="sm" ta="center" py={6} px="md" bg="#fef3c7" c="#78350f">
      {t('devOutbox.banner')}{' '}
      <Anchor href="/dev/outbox" target="_blank" size="sm" c="#78350f" fw={600} underline="always">
        {t('devOutbox.open')}
      </Anchor>
    </Text>
  );
}
