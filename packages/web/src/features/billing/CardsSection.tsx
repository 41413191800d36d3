import './styles';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Card } from '@portal/contracts';
import { CardName } from '../../components/billing/CardName';
import { DataTable } from '../../components/DataTable';
import { ListBody } from '../../components/ListBody';
import { RowAction } from '../../components/RowAction';
import { Section } from '../../components/Section';
import { ConfirmDialog } from '../../components/dialogs/ConfirmDialog';
import { ApiError, errorText, fieldErrors, fieldErrorText, notify } from '../../lib/api';
import { cardExpiry, cardLabel } from '../../lib/billing-display';
import { addCard, billingKeys, removeCard, setDefaultCard, tokenizeCard, useBillingConfig, useCards, useSubscriptions } from './api';
import { blankAddressFields, CardAddressFields, CardFormNotice, emptyAddress, type CardAddress } from './CardAddressFields';
import { checkCard, type CardInput } from './card-checks';
import { LoadingIndicator } from '../../components/LoadingIndicator';

/** Stripe's Payment Element and Stripe.js: loaded only when Stripe is the processor and a card is being added. */
const StripeCardForm = lazy(() => import('./StripeCardForm'));

type Values = CardInput & CardAddress;
const empty: Values = { number: '', expiry: '', cvc: '', ...emptyAddress };

/** Adds a card with the configured processor's form: Stripe's Payment Element, or the sandbox's fields. */
function AddCardForm({ onDone }: { onDone(): void }) {
  const config = useBillingConfig();
  if (config.isPending) return <LoadingIndicator />;
  if (config.data?.processor === 'stripe' && config.data.publishable_key) {
    return (
      <Suspense fallback={<LoadingIndicator />}>
        <StripeCardForm publishableKey={config.data.publishable_key} onDone={onDone} />
      </Suspense>
    );
  }
  return <SandboxCardForm onDone={onDone} />;
}

/** The sandbox's form: the number goes to the sandbox's tokenization, billing receives the token and the address. */
function SandboxCardForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = (field: keyof Values) => (value: string | boolean) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = checkCard(values);
    const next: Partial<Record<keyof Values, string>> = {};
    for (const [field, code] of Object.entries(checked.errors)) next[field as keyof Values] = t(`errors.${code}` as never);
    Object.assign(next, blankAddressFields(values, t('validation.blank' as never)));
    setErrors(next);
    if (!checked.card || Object.keys(next).length) return;
    setPending(true);
    try {
      const token = await tokenizeCard({ number: checked.card.number, exp_month: checked.card.expMonth, exp_year: checked.card.expYear, cvc: values.cvc.trim() });
      await addCard({ token: token.token, cardholder: values.cardholder, city: values.city, state: values.state, zip: values.zip, make_default: values.makeDefault });
      notify('success', t('billing.cards.added'));
      await client.invalidateQueries({ queryKey: billingKeys.cards });
      setValues(empty);
      onDone();
    } catch (error) {
      if (error instanceof ApiError) {
        const fields = fieldErrors(error);
        const placed: Partial<Record<keyof Values, string>> = {};
        for (const [name, field] of Object.entries(fields)) placed[(name === 'token' ? 'number' : name) as keyof Values] = fieldErrorText(field);
        setErrors(placed);
        const message = Object.keys(placed).length ? null : errorText(error);
        setFailure(message);
        notify('error', message ?? t('billing.cards.failed'));
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="add-card-form">
      <Stack gap="sm">
        <CardFormNotice note={t('billing.cards.sandboxNote')} failure={failure} />
        <TextInput label={t('billing.cards.number')} value={values.number} onChange={(e) => set('number')(e.currentTarget.value)} error={errors.number} autoComplete="cc-number" inputMode="numeric" />
        <SimpleGrid cols={2}>
          <TextInput label={t('billing.cards.expiry')} value={values.expiry} onChange={(e) => set('expiry')(e.currentTarget.value)} error={errors.expiry} autoComplete="cc-exp" placeholder="MM/YY" />
          <TextInput label={t('billing.cards.cvc')} value={values.cvc} onChange={(e) => set('cvc')(e.currentTarget.value)} error={errors.cvc} autoComplete="cc-csc" inputMode="numeric" />
        </SimpleGrid>
        <CardAddressFields values={values} errors={errors} onChange={(field, value) => set(field)(value)} />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} data-testid="save-card">
            {t('billing.cards.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Payment methods: the cards, the default, adding and removing (removing a card cancels all subscriptions, the spec's state rules: the dialog says so). */
export function CardsSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const cards = useCards();
  const subscriptions = useSubscriptions();
  // What a removal ends: every subscription still running (a lifetime licence is not paid by card).
  const live = subscriptions.data?.filter((subscription) => subscription.status !== 'canceled' && !subscription.lifetime).length ?? 0;
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Card | null>(null);
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: billingKeys.cards }), client.invalidateQueries({ queryKey: billingKeys.subscriptions })]);

  return (
    <Section title={t('billing.cards.title')} description={t('billing.cards.description')}>
      <ListBody rows={cards.data} pending={cards.isPending} empty={t('billing.cards.empty')}>
        {(rows) => (
            <DataTable rows={rows} rowKey={(card) => card.id} minWidth={0} testId="cards-table" rowTestId="card-row"
              columns={[
                {
                  header: t('billing.cards.card'),
                  label: '',
                  cell: (card) => (
                    <>
                      <CardName card={card} />
                      <Text size="xs" c="dimmed">
                        {t('billing.cards.expires', { date: cardExpiry(card) })} · {card.cardholder}, {card.city}
                      </Text>
                    </>
                  ),
                },
              ]}
              actions={{
                label: t('billing.subscriptions.actions'),
                cell: (card) => (
                  <>
                    {!card.is_default && (
                      <RowAction
                        label={t('billing.cards.setDefault')}
                        of={cardLabel(card)}
                        onClick={async () => {
                          await setDefaultCard(card.id);
                          notify('success', t('billing.cards.defaultChanged'));
                          await refresh();
                        }}
                      />
                    )}
                    <RowAction label={t('billing.cards.remove')} of={cardLabel(card)} danger onClick={() => setRemoving(card)} />
                  </>
                ),
              }}
            />
        )}
      </ListBody>
      {adding ? (
        <AddCardForm onDone={() => setAdding(false)} />
      ) : (
        <Group justify="flex-end">
          <Button onClick={() => setAdding(true)} data-testid="add-card">
            {t('billing.cards.add')}
          </Button>
        </Group>
      )}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={removing ? t('billing.cards.removeTitle', { card: cardLabel(removing) }) : ''}
        confirmLabel={t('billing.cards.remove')}
        danger
        onConfirm={async () => {
          if (!removing) return;
          const result = await removeCard(removing.id);
          notify('success', result.canceled_subscriptions.length ? t('billing.cards.canceledSubscriptions', { count: result.canceled_subscriptions.length }) : t('billing.cards.removed'));
          await refresh();
        }}
      >
        <Stack gap="xs">
          <Text size="sm" data-testid="remove-card-rule">
            {t('billing.cards.removeBody')}
          </Text>
          {live > 0 && (
            <Text size="sm" c="red.8" data-testid="remove-card-warning">
              {t('billing.cards.removeWarning', { count: live })}
            </Text>
          )}
        </Stack>
      </ConfirmDialog>
    </Section>
  );
}
