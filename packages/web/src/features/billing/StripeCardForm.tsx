import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Input, Stack } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementLocale } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText, fieldErrors, fieldErrorText, notify } from '../../lib/api';
import { addCard, billingKeys, createCardSetup } from './api';
import { blankAddressFields, CardAddressFields, CardFormNotice, emptyAddress, type CardAddress } from './CardAddressFields';
import { LoadingIndicator } from '../../components/LoadingIndicator';

/** Stripe.js, fetched once per publishable key, and only when this form first shows. */
const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    // A failed load (blocked, offline) is tried again the next time the form opens.
    stripe.catch(() => loaded.delete(publishableKey));
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

interface Props {
  publishableKey: string;
  onDone(): void;
  /** Tests: Stripe.js itself (it cannot be downloaded here); the page loads it from js.stripe.com. */
  stripe?: Promise<Stripe | null>;
}

/**
 * Adds a card with Stripe's Payment Element: the server makes a SetupIntent, the card's
 * number, expiry and code are typed into Stripe's own frame and confirmed with Stripe, and
 * billing receives only the resulting payment method (pm_…) with the billing address.
 */
export default function StripeCardForm({ publishableKey, onDone, stripe }: Props) {
  const { t, i18n } = useTranslation();
  const [secret, setSecret] = useState<string | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [stripePromise] = useState(() => stripe ?? stripeFor(publishableKey));

  useEffect(() => {
    let live = true;
    createCardSetup()
      .then((setup) => live && setSecret(setup.client_secret))
      .catch(() => live && setUnavailable(true));
    stripePromise.then((loadedStripe) => !loadedStripe && live && setUnavailable(true)).catch(() => live && setUnavailable(true));
    return () => {
      live = false;
    };
  }, [stripePromise]);

  if (unavailable) {
    return (
      <Alert color="red" role="alert" data-testid="card-failure">
        {t('billing.cards.stripeUnavailable')}
      </Alert>
    );
  }
  if (!secret) return <LoadingIndicator />;
  const locale: StripeElementLocale = i18n.language === 'vi' ? 'vi' : 'en';
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: secret, locale }}>
      <PaymentForm onDone={onDone} />
    </Elements>
  );
}

function PaymentForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const stripe = useStripe();
  const elements = useElements();
  const [values, setValues] = useState<CardAddress>(emptyAddress);
  const [errors, setErrors] = useState<Partial<Record<keyof CardAddress, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setFailure(null);
    // Stripe's own checks of the card fields (shown in its frame), then ours of the address.
    const checked = await elements.submit();
    const blanks = blankAddressFields(values, t('validation.blank' as never));
    setErrors(blanks);
    if (checked.error || Object.keys(blanks).length) return;
    setPending(true);
    try {
      const confirmed = await stripe.confirmSetup({
        elements,
        redirect: 'if_required',
        confirmParams: {
          return_url: window.location.href,
          payment_method_data: { billing_details: { name: values.cardholder.trim(), address: { city: values.city.trim(), state: values.state.trim(), postal_code: values.zip.trim() } } },
        },
      });
      if (confirmed.error) {
        // A card Stripe refused shows the generic decline message (spec); anything else, Stripe's own words.
        const message = confirmed.error.type === 'card_error' ? t('errors.billing.card_declined' as never) : (confirmed.error.message ?? t('billing.cards.failed'));
        setFailure(message);
        notify('error', message);
        return;
      }
      const method = confirmed.setupIntent.payment_method;
      const token = typeof method === 'string' ? method : method?.id;
      if (!token) throw new Error('no payment method');
      await addCard({ token, cardholder: values.cardholder, city: values.city, state: values.state, zip: values.zip, make_default: values.makeDefault });
      notify('success', t('billing.cards.added'));
      await client.invalidateQueries({ queryKey: billingKeys.cards });
      onDone();
    } catch (error) {
      const fields = error instanceof ApiError ? fieldErrors(error) : {};
      const placed: Partial<Record<keyof CardAddress, string>> = {};
      for (const [name, field] of Object.entries(fields)) if (name in emptyAddress) placed[name as keyof CardAddress] = fieldErrorText(field);
      setErrors(placed);
      const message = error instanceof ApiError && !Object.keys(placed).length ? errorText(error) : t('billing.cards.failed');
      setFailure(message);
      notify('error', message);
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid="add-card-form">
      <Stack gap="sm">
        <CardFormNotice note={t('billing.cards.stripeNote')} failure={failure} />
        <Input.Wrapper label={t('billing.cards.cardDetails')} data-testid="stripe-payment-element">
          <PaymentElement options={{ fields: { billingDetails: { name: 'never', address: { city: 'never', state: 'never', postalCode: 'never' } } } }} />
        </Input.Wrapper>
        <CardAddressFields values={values} errors={errors} onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))} />
        <Group justify="flex-end">
          <Button type="submit" loading={pending} disabled={!stripe || !elements} data-testid="save-card">
            {t('billing.cards.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
