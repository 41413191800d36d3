import './styles';
import { Badge, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { findPlan, formatDateTime, formatMinor, type Order } from '@portal/contracts';
import { DataTable } from '../../components/DataTable';
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
      {orders.isPending ? (
        <Loader size="sm" aria-label={t('common.loading')} />
      ) : !orders.data?.length ? (
        <Text size="sm" c="dimmed">
          {t('billing.orders.empty')}
        </Text>
      ) : (
        <DataTable
          rows={orders.data}
          rowKey={(order) => order.id}
          minWidth={760}
          narrow="cards"
          testId="orders-table"
          rowTestId="order-row"
          columns={[
            {
              header: t('billing.orders.number'),
              cell: (order) => (
                <Text size="sm" ff="monospace">
                  {order.number}
                </Text>
              ),
            },
            { header: t('billing.orders.date'), cell: (order) => <Text size="sm">{formatDateTime(order.created_at, language)}</Text> },
            {
              header: t('billing.orders.plan'),
              cell: (order) => (
                <Text size="sm">
                  {orderPlan(order)} · {t('billing.subscriptions.months', { count: order.months })}
                </Text>
              ),
            },
            {
              header: t('billing.orders.total'),
              // One element: on a phone card the cell is one grid cell beside its label.
              cell: (order) => (
                <Stack gap={2}>
                  <Text size="sm" fw={500}>
                    {formatMinor(order.total, order.currency, language)}
                  </Text>
                  {order.discount > 0 && (
                    <Text size="xs" c="dimmed">
                      {t('billing.checkout.discount')}: −{formatMinor(order.discount, order.currency, language)}
                      {order.promo_code ? ` (${order.promo_code})` : ''}
                    </Text>
                  )}
                </Stack>
              ),
            },
            { header: t('billing.orders.paymentMethod'), cell: (order) => <Text size="sm">{order.payment_method ?? '—'}</Text> },
            {
              header: t('billing.orders.status'),
              cell: (order) => (
                <Badge color={statusColor[order.status]} variant="light">
                  {t(`billing.orders.statuses.${order.status}`)}
                </Badge>
              ),
            },
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
    </Section>
  );
}
