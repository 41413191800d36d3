import { useState } from 'react';
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { CardsSection } from './CardsSection';
import { CheckoutSection } from './CheckoutSection';
import { OrdersSection } from './OrdersSection';
import { SubscriptionsSection } from './SubscriptionsSection';

/** /billing: payment methods, subscriptions, checkout (or a change of plan), orders and invoices. */
export function BillingPage() {
  const { t } = useTranslation();
  const [changing, setChanging] = useState<Subscription | null>(null);
  return (
    <Stack gap="lg">
      <PageHeader title={t('billing.title')} description={t('billing.description')} />
      <CardsSection />
      <SubscriptionsSection onChange={setChanging} />
      <CheckoutSection key={changing?.id ?? 'new'} changing={changing} onDone={() => setChanging(null)} />
      <OrdersSection />
    </Stack>
  );
}
