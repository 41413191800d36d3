import '@mantine/core/styles/Badge.css';
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Card } from '@portal/contracts';
import { cardLabel } from '../../lib/billing-display';

/** A payment card as both billing and the wallet name it: "Visa •••• 4242", with a Default badge on the default card. */
export function CardName({ card }: { card: Pick<Card, 'brand' | 'last4' | 'is_default'> }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Text size="sm" fw={500}>
        {cardLabel(card)}
      </Text>
      {card.is_default && (
        <Badge size="sm" variant="light">
          {t('billing.cards.default')}
        </Badge>
      )}
    </Group>
  );
}
