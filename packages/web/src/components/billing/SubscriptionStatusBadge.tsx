import '@mantine/core/styles/Badge.css';
import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '@portal/contracts';

const statusColor: Record<Subscription['status'], string> = { trialing: 'green', active: 'green', past_due: 'orange', canceled: 'gray' };

/** A subscription's status in its colour (a trial reads Active, the spec's statuses), on billing and in the wallet's summary. */
export function SubscriptionStatusBadge({ status, size, testId }: { status: Subscription['status']; size?: BadgeProps['size']; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge size={size} color={statusColor[status]} variant="light" data-testid={testId}>
      {t(`billing.subscriptions.statuses.${status}`)}
    </Badge>
  );
}
