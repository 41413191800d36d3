import './styles';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { findPlan, formatDateTime, formatMinor, type Order } from '@portal/contracts';
import { CellText, StateBadge } from '../../components/cells';
import { DataTable } from '../../components/DataTable';
import { ListBody } from '../../components/ListBody';
import { RowAction } from '../../components/RowAction';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { downloadInvoice, useOrders } from './api';
import { useLanguage } from '../../lib/use-language';
import { planTitle } from '../../lib/billing-display';

const statusColor: Record<Order['status'], string> = { paid: 'green', completed: 'green', unpaid: 'gray', failed: 'red', pending: 'yellow', rejected: 'red' };

/** The plan an order bought, with its product named once. */
const orderPlan = (order: Pick<Order, 'plan' | 'plan_name'>) => {
  const plan = findPlan(order.plan);
  return plan ? planTitle(plan.product, order.plan_name) : order.plan_name;
};

/** Orders (the spec's fields) with their invoices. An unpaid order shows as canceled (the spec's state rules). */
export function OrdersSection() {
  const { t } = useTranslation();
  const language = useLanguage();
  const orders = useOrders();
  return (
    <Section title={t('billing.orders.title')} description={t('billing.orders.description')}>
      <ListBody rows={orders.data} pending={orders.isPending} empty={t('billing.orders.empty')}>
        {(rows) => (
          <DataTable rows={rows} rowKey={(order) => order.id} minWidth={760} testId="orders-table" rowTestId="order-row"
            columns={[
              { header: t('billing.orders.number'), text: (order) => order.number, mono: true },
              { header: t('billing.orders.date'), text: (order) => formatDateTime(order.created_at, language) },
              { header: t('billing.orders.plan'), text: (order) => `${orderPlan(order)} · ${t('billing.subscriptions.months', { count: order.months })}` },
              {
                header: t('billing.orders.total'),
                // One element: on a phone card the cell is one grid cell beside its label.
                cell: (order) => (
                  <Stack gap={2}>
                    <CellText strong>{formatMinor(order.total, order.currency, language)}</CellText>
                    {order.discount > 0 && (
                      <Text size="xs" c="dimmed">
                        {t('billing.checkout.discount')}: −{formatMinor(order.discount, order.currency, language)}
                        {order.promo_code ? ` (${order.promo_code})` : ''}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              { header: t('billing.orders.paymentMethod'), text: (order) => order.payment_method ?? '—' },
              { header: t('billing.orders.status'), cell: (order) => <StateBadge color={statusColor[order.status]}>{t(`billing.orders.statuses.${order.status}`)}</StateBadge> },
              {
                header: t('billing.orders.invoice'),
                cell: (order) =>
                  order.has_invoice && (
                    <RowAction
                      label={t('billing.orders.download')}
                      of={order.number}
                      testId="download-invoice"
                      onClick={() => void downloadInvoice(order).catch(() => notify('error', t('billing.orders.downloadFailed')))}
                    />
                  ),
              },
            ]}
          />
        )}
      </ListBody>
    </Section>
  );
}
