import { Alert, Checkbox, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type AddressField = 'cardholder' | 'city' | 'state' | 'zip';
export type CardAddress = Record<AddressField, string> & { makeDefault: boolean };
export const emptyAddress: CardAddress = { cardholder: '', city: '', state: '', zip: '', makeDefault: false };

/** The spec's blank check of the billing address: each field's message, by field. */
export function blankAddressFields(values: CardAddress, blank: string): Partial<Record<AddressField, string>> {
  const errors: Partial<Record<AddressField, string>> = {};
  for (const field of ['cardholder', 'city', 'state', 'zip'] as const) if (!values[field].trim()) errors[field] = blank;
  return errors;
}

/** Cardholder, city, state, ZIP and "make default": the part of the add-card form both processors share. */
export function CardAddressFields({ values, errors, onChange }: { values: CardAddress; errors: Partial<Record<AddressField, string>>; onChange(field: keyof CardAddress, value: string | boolean): void }) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput label={t('billing.cards.cardholder')} value={values.cardholder} onChange={(e) => onChange('cardholder', e.currentTarget.value)} error={errors.cardholder} autoComplete="cc-name" />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label={t('billing.cards.city')} value={values.city} onChange={(e) => onChange('city', e.currentTarget.value)} error={errors.city} autoComplete="address-level2" />
        <TextInput label={t('billing.cards.state')} value={values.state} onChange={(e) => onChange('state', e.currentTarget.value)} error={errors.state} autoComplete="address-level1" />
        <TextInput label={t('billing.cards.zip')} value={values.zip} onChange={(e) => onChange('zip', e.currentTarget.value)} error={errors.zip} autoComplete="postal-code" />
      </SimpleGrid>
      <Checkbox label={t('billing.cards.makeDefault')} checked={values.makeDefault} onChange={(e) => onChange('makeDefault', e.currentTarget.checked)} />
    </>
  );
}

/** The top of an add-card form: the processor's note and, after a failed try, why. */
export function CardFormNotice({ note, failure }: { note: string; failure: string | null }) {
  return (
    <>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
      {failure && (
        <Alert color="red" role="alert" data-testid="card-failure">
          {failure}
        </Alert>
      )}
    </>
  );
}
