import './styles';
import { Badge, Button, Loader, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMinor, type Order } from '@portal/contracts';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { downloadInvoice, useOrders } from './api';
import { useLanguage } from './shared';

const statusColor: Record<Order['status'], string> = { paid: 'green', completed: 'green', unpaid: 'gray', failed: 'red', pending: 'yellow', rejected: 'red' };

/** Orders (spec section 3's fields) with their invoices. An unpaid order shows as canceled (section 4). */
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
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" data-testid="orders-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('billing.orders.number')}</Table.Th>
                <Table.Th>{t('billing.orders.date')}</Table.Th>
                <Table.Th>{t('billing.orders.plan')}</Table.Th>
                <Table.Th>{t('billing.orders.total')}</Table.Th>
                <Table.Th>{t('billing.orders.paymentMethod')}</Table.Th>
                <Table.Th>{t('billing.orders.status')}</Table.Th>
                <Table.Th>{t('billing.orders.invoice')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.data.map((order) => (
                <Table.Tr key={order.id} data-testid="order-row">
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {order.number}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(order.created_at, language)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {order.plan_name} · {order.months}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {formatMinor(order.total, order.currency, language)}
                    </Text>
                    {order.discount > 0 && (
                      <Text size="xs" c="dimmed">
                        {t('billing.checkout.discount')}: −{formatMinor(order.discount, order.currency, language)}
                        {order.promo_code ? ` (${order.promo_code})` : ''}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{order.payment_method ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[order.status]} variant="light">
                      {t(`billing.orders.statuses.${order.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {order.has_invoice && (
                      <Button
                        size="xs"
                        variant="subtle"
                        data-testid="download-invoice"
                        onClick={() => downloadInvoice(order).catch(() => notify('error', t('billing.orders.downloadFailed')))}
                      >
                        {t('billing.orders.download')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Section>
  );
}
