import './styles';
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  billingCurrencies,
  findPlan,
  formatDate,
  formatMinor,
  planPeriods,
  purchasablePlans,
  type BillingCurrency,
  type Quote,
  type Subscription,
} from '@portal/contracts';
import { Section } from '../../components/Section';
import { ApiError, errorText, fieldErrors, fieldErrorText, notify } from '../../lib/api';
import { billingKeys, changeSubscription, newIdempotencyKey, quote as fetchQuote, subscribe, useCards } from './api';
import { useLanguage } from '../../lib/use-language';
import { planTitle } from '../../lib/billing-display';
import { usePriceText } from './price-text';

/** A line of the checkout's totals: what it is, and its amount at the right. */
function TotalsRow({ label, amount, strong, testId }: { label: string; amount: string; strong?: boolean; testId?: string }) {
  return (
    <Table.Tr>
      <Table.Td fw={strong ? 600 : undefined}>{label}</Table.Td>
      <Table.Td ta="right" fw={strong ? 600 : undefined} data-testid={testId}>
        {amount}
      </Table.Td>
    </Table.Tr>
  );
}

/** Checkout: plan, period and currency, a promo code, the totals before paying; or a change of a subscription (with proration). */
export function CheckoutSection({ changing, onDone }: { changing: Subscription | null; onDone(): void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const client = useQueryClient();
  const cards = useCards();
  const priceText = usePriceText();
  const plans = useMemo(() => purchasablePlans(changing?.product), [changing]);
  const [planId, setPlanId] = useState<string>(changing ? (plans.find((plan) => plan.id !== changing.plan)?.id ?? plans[0]!.id) : 'pwdmanager.premium');
  const plan = findPlan(planId) ?? plans[0]!;
  const periods = planPeriods(plan);
  const [months, setMonths] = useState<number>(periods[periods.length - 1] ?? 1);
  const [currency, setCurrency] = useState<BillingCurrency>(changing?.currency ?? (language === 'vi' ? 'VND' : 'USD'));
  const [promoInput, setPromoInput] = useState('');
  const [promo, setPromo] = useState<string | undefined>(undefined);
  const [promoError, setPromoError] = useState<string | undefined>(undefined);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [askedForCard, setAskedForCard] = useState(false);
  const [paying, setPaying] = useState(false);
  const noCard = cards.data !== undefined && cards.data.length === 0;
  const money = (minor: number) => formatMinor(minor, quote?.currency ?? currency, language);
  const validMonths = periods.includes(months as never) ? months : (periods[periods.length - 1] ?? 1);

  useEffect(() => {
    let live = true;
    const body = { plan: plan.id as never, months: validMonths as never, currency, ...(promo ? { promo_code: promo } : {}), ...(changing ? { subscription_id: changing.id } : {}) };
    fetchQuote(body)
      .then((answer) => {
        if (!live) return;
        setQuote(answer);
        // Only an accepted code clears the message a refused one left.
        if (promo) setPromoError(undefined);
      })
      .catch((error: unknown) => {
        if (!live || !(error instanceof ApiError)) return;
        const field = fieldErrors(error).promo_code;
        if (field) {
          setPromoError(fieldErrorText(field));
          setPromo(undefined);
        }
      });
    return () => {
      live = false;
    };
  }, [plan.id, validMonths, currency, promo, changing]);

  const pay = async () => {
    setFailure(null);
    // Said once the person tries to pay, not before they have done anything (and gone with the card's arrival).
    if (noCard) {
      setAskedForCard(true);
      return;
    }
    setPaying(true);
    try {
      const idempotency_key = newIdempotencyKey();
      const common = { plan: plan.id as never, months: validMonths as never, ...(promo ? { promo_code: promo } : {}), idempotency_key };
      if (changing) await changeSubscription(changing.id, common);
      else await subscribe({ ...common, currency });
      notify('success', t('billing.checkout.done'));
      await Promise.all([billingKeys.subscriptions, billingKeys.orders, billingKeys.cards].map((queryKey) => client.invalidateQueries({ queryKey })));
      onDone();
    } catch (error) {
      if (error instanceof ApiError) {
        const promoField = fieldErrors(error).promo_code;
        if (promoField) setPromoError(fieldErrorText(promoField));
        const message = errorText(error);
        setFailure(message);
        notify('error', `${t('billing.checkout.failed')}: ${message}`);
      }
    } finally {
      setPaying(false);
    }
  };

  const trialEnd = quote?.trial_days ? formatDate(Date.now() + quote.trial_days * 86_400_000, language) : '';

  return (
    <Section title={changing ? t('billing.checkout.changeTitle') : t('billing.checkout.title')}>
      <Stack gap="sm" data-testid="checkout">
        {/* The plan's full name and price need the whole width; a third of it cut them off. */}
        <Select
          label={t('billing.checkout.plan')}
          data={plans.map((option) => {
            const price = priceText.offered(option, currency);
            return { value: option.id, label: `${planTitle(option.product, option.name)}${price ? ` · ${price}` : ''}` };
          })}
          value={plan.id}
          onChange={(value) => value && setPlanId(value)}
          allowDeselect={false}
          data-testid="checkout-plan"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('billing.checkout.period')}
            data={periods.map((period) => ({ value: String(period), label: t('billing.subscriptions.months', { count: period }) }))}
            value={String(validMonths)}
            onChange={(value) => value && setMonths(Number(value))}
            allowDeselect={false}
            data-testid="checkout-period"
          />
          <Select
            label={t('billing.checkout.currency')}
            data={billingCurrencies.map((value) => ({ value, label: value }))}
            value={currency}
            onChange={(value) => value && setCurrency(value as BillingCurrency)}
            disabled={changing !== null}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Group align="flex-end" gap="xs">
          <TextInput label={t('billing.checkout.promo')} value={promoInput} onChange={(e) => setPromoInput(e.currentTarget.value)} error={promoError} data-testid="promo-code" />
          <Button variant="light" onClick={() => setPromo(promoInput.trim() || undefined)} data-testid="apply-promo">
            {t('billing.checkout.apply')}
          </Button>
        </Group>
        {quote && (
          <Table data-testid="checkout-totals" withRowBorders={false} maw={420}>
            <Table.Tbody>
              <TotalsRow label={t('billing.checkout.price')} amount={money(quote.price)} />
              {quote.discount > 0 && <TotalsRow label={`${t('billing.checkout.discount')} (${quote.promo_code})`} amount={`−${money(quote.discount)}`} testId="checkout-discount" />}
              <TotalsRow label={t('billing.checkout.subtotal')} amount={money(quote.subtotal)} />
              {quote.credit > 0 && <TotalsRow label={t('billing.checkout.credit')} amount={`−${money(quote.credit)}`} />}
              <TotalsRow label={t('billing.checkout.dueNow')} amount={money(quote.due_now)} strong testId="checkout-due" />
            </Table.Tbody>
          </Table>
        )}
        {quote?.trial_days ? <Text size="sm">{t('billing.checkout.trial', { days: quote.trial_days, date: trialEnd })}</Text> : null}
        {noCard && !askedForCard && (
          <Text size="sm" c="dimmed" data-testid="checkout-card-hint">
            {t('billing.checkout.cardHint')}
          </Text>
        )}
        {((noCard && askedForCard) || failure) && (
          <Alert color="red" role="alert" data-testid="checkout-failure">
            {noCard && askedForCard ? t('billing.checkout.noCard') : failure}
          </Alert>
        )}
        <Group justify="flex-end">
          {changing && (
            <Button variant="default" onClick={onDone}>
              {t('common.cancel')}
            </Button>
          )}
          <Button onClick={pay} loading={paying} disabled={!quote} data-testid="checkout-pay">
            {quote?.trial_days ? t('billing.checkout.startTrial') : t('billing.checkout.pay', { amount: quote ? money(quote.due_now) : '' })}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}
