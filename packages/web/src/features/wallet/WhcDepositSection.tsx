import './styles';
import { useEffect, useRef } from 'react';
import { Alert, Anchor, Badge, Button, CopyButton, Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, isLanguage, type Language, type WhcDeposit, type WhcDepositStatus } from '@portal/contracts';
import { useWhcDepositAddress, useWhcDeposits, walletKeys } from './api';
import { BSCSCAN_TX, short } from './WithdrawalSection';

const statusColor: Record<WhcDepositStatus, string> = { pending: 'yellow', completed: 'green', ignored: 'gray' };

function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

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
  if (deposits.isPending) return <Loader size="sm" aria-label={t('common.loading')} />;
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
        <Loader size="sm" aria-label={t('common.loading')} />
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
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" data-testid="whc-deposits-table" aria-label={t('wallet.whcDeposit.recent')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wallet.transactions.time')}</Table.Th>
                <Table.Th>{t('wallet.transactions.amount')}</Table.Th>
                <Table.Th>{t('wallet.transactions.status')}</Table.Th>
                <Table.Th>{t('wallet.withdrawal.transaction')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deposits.data.items.map((item) => (
                <Table.Tr key={item.id} data-testid="whc-deposit-row">
                  <Table.Td>
                    <Text size="sm">{formatDateTime(item.created_at, language)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {formatMoney({ minor: item.amount }, 'WHC', language)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[item.status]} variant="light" data-testid="whc-deposit-status">
                      {statusText(item, needed)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Anchor href={`${BSCSCAN_TX}${item.tx_hash}`} target="_blank" rel="noreferrer" size="sm" ff="monospace">
                      {short(item.tx_hash)}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
