import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import { useState } from 'react';
import { Button, Group, NativeSelect, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime, webhookDeliveryStatuses, type WebhookDelivery, type WebhookDeliveryStatus } from '@portal/contracts';
import { NameCell, StateBadge } from '../../../components/cells';
import { DataTable } from '../../../components/DataTable';
import { useLanguage } from '../../../lib/use-language';
import { CursorPager } from '../CursorPager';
import { useCursorPages } from '../cursor-pages';
import { ListResults } from '../ListResults';
import { useDeliveries } from './api';

const statusColor: Record<WebhookDeliveryStatus, string> = { pending: 'yellow', delivered: 'green', failed: 'red' };

/**
 * What the receiver last answered (its status code), else why the delivery went unanswered or
 * unsent, in words with the log's code beneath (what the server's log and the admin API say).
 */
function LastAnswer({ delivery }: { delivery: WebhookDelivery }) {
  const { t, i18n } = useTranslation();
  if (delivery.last_status_code !== null) return String(delivery.last_status_code);
  const code = delivery.last_error;
  if (!code) return '—';
  const words = `admin.webhooks.errors.${code}`;
  return <NameCell name={i18n.exists(words) ? String(t(words as never)) : code} detail={code} detailMono detailTestId="webhook-log-error" />;
}

/** An app's deliveries, newest first, filtered by status; owners may send one again. */
export function DeliveryLog({ clientId, onRedeliver }: { clientId: string; onRedeliver?: (delivery: WebhookDelivery) => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [status, setStatus] = useState<WebhookDeliveryStatus | undefined>(undefined);
  const pages = useCursorPages();
  const log = useDeliveries(clientId, status, pages.cursor);
  const nextCursor = log.data?.next_cursor;
  return (
    <Stack gap="sm">
      <NativeSelect
        label={t('admin.webhooks.statusFilter')}
        value={status ?? ''}
        data={[{ value: '', label: t('admin.webhooks.allStatuses') }, ...webhookDeliveryStatuses.map((value) => ({ value, label: t(`admin.webhooks.status.${value}`) }))]}
        onChange={(event) => {
          const value = event.currentTarget.value as WebhookDeliveryStatus | '';
          setStatus(value || undefined);
          pages.first();
        }}
        maw={260}
      />
      <ListResults query={log} rows={log.data?.items} failed={t('admin.webhooks.loadFailed')} empty={t('admin.webhooks.noDeliveries')} emptyTestId="webhook-log-empty">
        {(rows) => (
          <DataTable<WebhookDelivery> rows={rows} rowKey={(row) => row.id} testId="webhook-log" rowTestId="webhook-log-row" label={t('admin.webhooks.log')} minWidth={760}
            columns={[
              { header: t('admin.webhooks.columns.created'), cell: (row) => formatDateTime(row.created_at, language) },
              {
                header: t('admin.webhooks.columns.event'),
                cell: (row) => <NameCell name={row.type} mono detail={row.event_id} detailMono />,
              },
              {
                header: t('admin.webhooks.columns.status'),
                cell: (row) => (
                  <StateBadge color={statusColor[row.status]}>{t(`admin.webhooks.status.${row.status}`)}</StateBadge>
                ),
              },
              { header: t('admin.webhooks.columns.attempts'), cell: (row) => String(row.attempts) },
              { header: t('admin.webhooks.columns.answer'), cell: (row) => <LastAnswer delivery={row} /> },
              { header: t('admin.webhooks.columns.next'), cell: (row) => (row.next_attempt_at ? formatDateTime(row.next_attempt_at, language) : '—') },
            ]}
            actions={{
              label: t('admin.webhooks.columns.actions'),
              // Everyone may copy an event's id (what a product team searches its own logs for), so the
              // table always holds something to reach with the keyboard, on a phone's sideways scroll too.
              cell: (row: WebhookDelivery) => (
                <Group gap={6} wrap="nowrap" justify="flex-end">
                  <Button size="xs" variant="default" onClick={() => void navigator.clipboard?.writeText(row.event_id)} aria-label={t('admin.webhooks.copyIdOf', { id: row.event_id })}>
                    {t('admin.webhooks.copyId')}
                  </Button>
                  {onRedeliver && (
                    <Button size="xs" variant="light" onClick={() => onRedeliver(row)} data-testid="webhook-redeliver">
                      {t('admin.webhooks.redeliver')}
                    </Button>
                  )}
                </Group>
              ),
            }}
          />
        )}
      </ListResults>
      <CursorPager pages={pages} nextCursor={nextCursor} previousLabel={t('admin.webhooks.newer')} nextLabel={t('admin.webhooks.older')} size="xs" />
    </Stack>
  );
}
