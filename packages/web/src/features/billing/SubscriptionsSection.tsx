import './styles';
import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { findPlan, formatDate, type Card, type Subscription } from '@portal/contracts';
import { SubscriptionStatusBadge } from '../../components/billing/SubscriptionStatusBadge';
import { DataTable } from '../../components/DataTable';
import { ListBody } from '../../components/ListBody';
import { RowAction } from '../../components/RowAction';
import { Section } from '../../components/Section';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { notify } from '../../lib/api';
import { billingKeys, cancelSubscription, resumeSubscription, useCards, useSubscriptions } from './api';
import { useLanguage } from '../../lib/use-language';
import { cardLabel, planTitle } from '../../lib/billing-display';
import { usePriceText } from './price-text';


/** The card a subscription's next charge goes to: its own, else the default (as the renewal job chooses). */
export const chargedCard = (subscription: Pick<Subscription, 'card_id'>, cards: readonly Card[]) =>
  cards.find((card) => card.id === subscription.card_id) ?? cards.find((card) => card.is_default) ?? null;

/**
 * Subscriptions: plan (product named once, period, seats), status (a trial shows as Active, with
 * its end and whether a card will pay after it), next charge, price per period; change, cancel
 * at period end, resume.
 */
export function SubscriptionsSection({ onChange }: { onChange(subscription: Subscription): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const client = useQueryClient();
  const subscriptions = useSubscriptions();
  const cards = useCards();
  const priceText = usePriceText();
  const [canceling, setCanceling] = useState<Subscription | null>(null);
  const date = (value: string | null) => (value ? formatDate(value, language) : '');
  const refresh = () => client.invalidateQueries({ queryKey: billingKeys.subscriptions });

  return (
    <Section title={t('billing.subscriptions.title')} description={t('billing.subscriptions.description')}>
      <ListBody rows={subscriptions.data} pending={subscriptions.isPending} empty={t('billing.subscriptions.empty')}>
        {(rows) => (
            <DataTable rows={rows} rowKey={(subscription) => subscription.id} minWidth={640} testId="subscriptions-table" rowTestId="subscription-row"
              rowProps={(subscription) => ({ 'data-plan': subscription.plan })}
              columns={[
                {
                  header: t('billing.subscriptions.plan'),
                  label: '',
                  cell: (subscription) => (
                    <>
                      <Text size="sm" fw={500} data-testid="subscription-plan">
                        {planTitle(subscription.product, subscription.plan_name)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {subscription.lifetime ? t('billing.subscriptions.lifetime') : t('billing.subscriptions.months', { count: subscription.months })}
                        {findPlan(subscription.plan)?.perMember && ` · ${t('billing.subscriptions.seats', { count: subscription.seats })}`}
                      </Text>
                    </>
                  ),
                },
                {
                  header: t('billing.subscriptions.status'),
                  // One element: on a phone card the cell is one grid cell beside its label.
                  cell: (subscription) => (
                    <Stack gap={2} align="flex-start">
                      <SubscriptionStatusBadge status={subscription.status} testId="subscription-status" />
                      {subscription.status === 'trialing' && subscription.trial_ends_at && (
                        <Text size="xs" c="dimmed" data-testid="subscription-trial">
                          {t('billing.subscriptions.trialEnds', { date: date(subscription.trial_ends_at) })}
                        </Text>
                      )}
                      {subscription.status === 'trialing' && cards.data && <TrialCard card={chargedCard(subscription, cards.data)} />}
                    </Stack>
                  ),
                },
                {
                  header: t('billing.subscriptions.nextCharge'),
                  cell: (subscription) => (
                    <Text size="sm">
                      {subscription.next_charge_at
                        ? date(subscription.next_charge_at)
                        : subscription.cancel_at_period_end && subscription.status !== 'canceled'
                          ? t('billing.subscriptions.endsOn', { date: date(subscription.current_period_end) })
                          : '—'}
                    </Text>
                  ),
                },
                {
                  header: t('billing.subscriptions.price'),
                  cell: (subscription) => (
                    <Text size="sm" data-testid="subscription-price">
                      {subscription.lifetime ? '—' : priceText.period(subscription.price, subscription.currency, subscription.months)}
                    </Text>
                  ),
                },
              ]}
              actions={{
                label: t('billing.subscriptions.actions'),
                cell: (subscription) =>
                  subscription.status !== 'canceled' &&
                  !subscription.lifetime && (
                    <>
                      {subscription.status !== 'past_due' && !subscription.organization_id && (
                        <Button size="compact-sm" variant="light" onClick={() => onChange(subscription)}>
                          {t('billing.subscriptions.change')}
                        </Button>
                      )}
                      {subscription.cancel_at_period_end ? (
                        <RowAction
                          label={t('billing.subscriptions.resume')}
                          of={planTitle(subscription.product, subscription.plan_name)}
                          onClick={async () => {
                            await resumeSubscription(subscription.id);
                            notify('success', t('billing.subscriptions.resumed'));
                            await refresh();
                          }}
                        />
                      ) : (
                        <RowAction label={t('billing.subscriptions.cancel')} of={planTitle(subscription.product, subscription.plan_name)} danger onClick={() => setCanceling(subscription)} />
                      )}
                    </>
                  ),
              }}
            />
        )}
      </ListBody>
      <ConfirmDialog
        opened={canceling !== null}
        onClose={() => setCanceling(null)}
        title={canceling ? t('billing.subscriptions.cancelTitle', { plan: canceling.plan_name }) : ''}
        confirmLabel={t('billing.subscriptions.cancel')}
        danger
        onConfirm={async () => {
          if (!canceling) return;
          const updated = await cancelSubscription(canceling.id);
          notify('success', t('billing.subscriptions.canceledToast', { date: date(updated.current_period_end) }));
          await refresh();
        }}
      >
        <Text size="sm">{t('billing.subscriptions.cancelBody')}</Text>
      </ConfirmDialog>
    </Section>
  );
}

/** Whether a card will pay when the trial ends: without one the trial ends with no charge. */
function TrialCard({ card }: { card: Card | null }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" data-testid="subscription-trial-card">
      {card ? t('billing.subscriptions.cardOnFile', { card: cardLabel(card) }) : t('billing.subscriptions.noCardOnFile')}
    </Text>
  );
}
