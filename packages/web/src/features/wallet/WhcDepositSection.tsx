import './styles';
import { useEffect, useRef } from 'react';
import { Alert, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type WhcDeposit, type WhcDepositStatus } from '@portal/contracts';
import { useWhcDepositAddress, useWhcDeposits, walletKeys } from './api';
import { DataTable } from '../../components/DataTable';
import { useLanguage } from '../../lib/use-language';
import { AmountCell, StatusBadge, TimeCell, TransactionLink } from './cells';
import { LoadingIndicator } from '../../components/LoadingIndicator';

const statusColor: Record<WhcDepositStatus, string> = { pending: 'yellow', completed: 'green', ignored: 'gray' };

/** A deposit's status in words: a pending one says how many confirmations it has of those needed. */
function useStatusText() {
  const { t } = useTranslation();
  return (item: WhcDeposit, needed: number) =>
    item.status === 'pending' ? t('wallet.whcDeposit.pendingConfirmations', { seen: item.confirmations, confirmations: needed }) : t(`wallet.whcDeposit.statuses.${item.status}`);
}

/**
 * The balance and the transactions follow the deposits: when one is found or credited, they are
 * asked again (the list itself is polled while the page is open).
 */
function useRefreshOnChange(items: WhcDeposit[] | undefined) {
  const client = useQueryClient();
  const seen = useRef<string | null>(null);
  const signature = items?.map((item) => `${item.id}:${item.status}`).join(',') ?? null;
  useEffect(() => {
    if (signature === null) return;
    if (seen.current !== null && seen.current !== signature) void client.invalidateQueries({ queryKey: walletKeys.all });
    seen.current = signature;
  }, [client, signature]);
}

/** The pending deposits as rows of the transactions list (seen on chain, not yet credited). */
export function usePendingWhcDeposits() {
  const deposits = useWhcDeposits();
  const statusText = useStatusText();
  const needed = deposits.data?.confirmations ?? 0;
  return (deposits.data?.items ?? [])
    .filter((item) => item.status === 'pending')
    .map((item) => ({ id: item.id, amount: item.amount, created_at: item.created_at, note: statusText(item, needed) }));
}

/** /wallet/whc's deposit panel: the person's BEP20 address with its QR code, the network, the confirmations waited for, and the deposits found. */
export function WhcDepositSection() {
  const { t } = useTranslation();
  const language = useLanguage();
  const deposits = useWhcDeposits();
  const enabled = deposits.data?.enabled ?? false;
  const address = useWhcDepositAddress(enabled);
  const statusText = useStatusText();
  useRefreshOnChange(deposits.data?.items);
  if (deposits.isPending) return <LoadingIndicator />;
  if (!enabled) {
    return (
      <Text size="sm" c="dimmed" data-testid="whc-deposit-unavailable">
        {t('errors.wallet.whc_deposits_unavailable')}
      </Text>
    );
  }
  const needed = deposits.data?.confirmations ?? 0;
  return (
    <Stack gap="md" data-testid="whc-deposit">
      {address.isPending ? (
        <LoadingIndicator />
      ) : address.data ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <img src={address.data.qr_image} alt={t('wallet.whcDeposit.qrAlt')} width={200} height={200} data-testid="whc-deposit-qr" style={{ maxWidth: '100%', height: 'auto' }} />
          <Stack gap="xs">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                {t('wallet.whcDeposit.network')}
              </Text>
              <Text size="sm" fw={600} data-testid="whc-deposit-network">
                {t('wallet.whcDeposit.networkName')}
              </Text>
            </Stack>
            <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-end">
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  {t('wallet.whcDeposit.address')}
                </Text>
                <Text size="sm" fw={600} ff="monospace" data-testid="whc-deposit-address" style={{ wordBreak: 'break-all' }}>
                  {address.data.address}
                </Text>
              </Stack>
              <CopyButton value={address.data.address}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="light" color={copied ? 'teal' : undefined} onClick={copy} aria-label={`${t('common.copy')}: ${t('wallet.whcDeposit.address')}`} data-testid="whc-deposit-copy">
                    {copied ? t('common.copied') : t('common.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Alert color="yellow" variant="light" data-testid="whc-deposit-notice">
              {t('wallet.whcDeposit.notice', { confirmations: address.data.confirmations })}
            </Alert>
          </Stack>
        </SimpleGrid>
      ) : null}
      {!deposits.data?.items.length ? (
        <Text size="sm" c="dimmed" data-testid="whc-deposits-empty">
          {t('wallet.whcDeposit.empty')}
        </Text>
      ) : (
        <DataTable rows={deposits.data.items} rowKey={(item) => item.id} minWidth={560} testId="whc-deposits-table" label={t('wallet.whcDeposit.recent')} rowTestId="whc-deposit-row"
          columns={[
            { header: t('wallet.transactions.time'), cell: (item) => <TimeCell at={item.created_at} language={language} /> },
            { header: t('wallet.transactions.amount'), cell: (item) => <AmountCell minor={item.amount} currency="WHC" language={language} /> },
            {
              header: t('wallet.transactions.status'),
              cell: (item) => (
                <StatusBadge color={statusColor[item.status]} testId="whc-deposit-status">
                  {statusText(item, needed)}
                </StatusBadge>
              ),
            },
            { header: t('wallet.withdrawal.transaction'), cell: (item) => <TransactionLink hash={item.tx_hash} /> },
          ]}
        />
      )}
    </Stack>
  );
}
