import './styles';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDate, paths, type Subscription } from '@portal/contracts';
import { CellText } from '../../components/cells';
import { ListBody } from '../../components/ListBody';
import { Section } from '../../components/Section';
import { CardName } from '../../components/billing/CardName';
import { SubscriptionStatusBadge } from '../../components/billing/SubscriptionStatusBadge';
import { cardExpiry, planTitle } from '../../lib/billing-display';
import { useLanguage } from '../../lib/use-language';
import { useCardSummary, useSubscriptionSummary } from './api';

function ManageLink({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.billing} size="sm" fw={500} data-testid={testId}>
      {t('wallet.manageInBilling')}
    </Anchor>
  );
}

/** The wallet's read-only view of the person's cards; adding and removing them is on Billing. */
export function PaymentMethodsSummary() {
  const { t } = useTranslation();
  const cards = useCardSummary();
  return (
    <Section title={t('wallet.paymentMethods.title')} description={t('wallet.paymentMethods.description')}>
      <Stack gap="xs" data-testid="wallet-cards">
        <ListBody rows={cards.data} pending={cards.isPending} empty={t('billing.cards.empty')}>
          {(rows) =>
            rows.map((card) => (
              <Group key={card.id} gap="xs" data-testid="wallet-card">
                <CardName card={card} />
                <Text size="sm" c="dimmed">
                  {t('billing.cards.expires', { date: cardExpiry(card) })}
                </Text>
              </Group>
            ))
          }
        </ListBody>
        <ManageLink testId="wallet-cards-manage" />
      </Stack>
    </Section>
  );
}

/** The wallet's read-only view of the person's live subscriptions: plan, status, trial end or next charge; changes are on Billing. */
export function SubscriptionsSummary() {
  const { t } = useTranslation();
  const language = useLanguage();
  const subscriptions = useSubscriptionSummary();
  const live = subscriptions.data?.filter((subscription) => subscription.status !== 'canceled') ?? [];
  const when = (subscription: Subscription) => {
    if (subscription.lifetime) return t('billing.subscriptions.lifetime');
    if (subscription.status === 'trialing' && subscription.trial_ends_at) return t('billing.subscriptions.trialEnds', { date: formatDate(subscription.trial_ends_at, language) });
    if (subscription.next_charge_at) return t('wallet.subscriptions.renews', { date: formatDate(subscription.next_charge_at, language) });
    if (subscription.current_period_end) return t('billing.subscriptions.endsOn', { date: formatDate(subscription.current_period_end, language) });
    return null;
  };
  return (
    <Section title={t('wallet.subscriptions.title')} description={t('wallet.subscriptions.description')}>
      <Stack gap="xs" data-testid="wallet-subscriptions">
        <ListBody rows={live} pending={subscriptions.isPending} empty={t('billing.subscriptions.empty')}>
          {(rows) =>
            rows.map((subscription) => (
              <Group key={subscription.id} gap="xs" data-testid="wallet-subscription">
                <CellText strong>{planTitle(subscription.product, subscription.plan_name)}</CellText>
                <SubscriptionStatusBadge size="sm" status={subscription.status} />
                {when(subscription) && <CellText dimmed>{when(subscription)}</CellText>}
              </Group>
            ))
          }
        </ListBody>
        <ManageLink testId="wallet-subscriptions-manage" />
      </Stack>
    </Section>
  );
}
