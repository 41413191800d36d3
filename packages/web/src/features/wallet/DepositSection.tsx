import './styles';
import '../../components/dialogs/styles';
import { useState, type FormEvent } from 'react';
import { Alert, Button, CopyButton, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, type DepositOrderCreated, type DepositOrderStatus } from '@portal/contracts';
import { ApiError, errorText, notify } from '../../lib/api';
import { createDeposit, fetchDeposit, useDeposits, walletKeys } from './api';
import { DataTable } from '../../components/DataTable';
import { useLanguage } from '../../lib/use-language';
import { AmountCell, StatusBadge, TimeCell } from './cells';
import { LoadingIndicator } from '../../components/LoadingIndicator';

const statusColor: Record<DepositOrderStatus, string> = { pending: 'yellow', paid: 'green', expired: 'gray' };
const MIN_DEPOSIT = 10_000;

/** One line of what to transfer, with a copy button when the person types it into their bank. */
function Detail({ label, value, copy, testId }: { label: string; value: string; copy?: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Stack gap={0} miw={0}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text size="sm" fw={600} data-testid={testId} style={{ wordBreak: 'break-all' }}>
          {value}
        </Text>
      </Stack>
      {copy && (
        <CopyButton value={value}>
          {({ copied, copy: doCopy }) => (
            <Button size="compact-xs" variant="light" color={copied ? 'teal' : undefined} onClick={doCopy} style={{ flexShrink: 0 }} aria-label={`${t('common.copy')}: ${label}`}>
              {copied ? t('common.copied') : t('common.copy')}
            </Button>
          )}
        </CopyButton>
      )}
    </Group>
  );
}

/** What to transfer for a new order: the VietQR code, the account, the amount, the reference and the deadline. */
function OrderInstructions({ order }: { order: DepositOrderCreated }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const amount = formatMoney({ minor: order.amount }, 'VND', language);
  return (
    <Stack gap="md" data-testid="deposit-order">
      <Text size="sm">{t('wallet.deposit.instructions')}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <img src={order.qr_image} alt={t('wallet.deposit.qrAlt', { amount, reference: order.reference })} width={240} height={240} data-testid="deposit-qr" style={{ maxWidth: '100%', height: 'auto' }} />
        <Stack gap="xs">
          <Detail label={t('wallet.deposit.bin')} value={order.bank.bin} testId="deposit-bin" />
          <Detail label={t('wallet.deposit.accountNumber')} value={order.bank.account_number} copy testId="deposit-account-number" />
          <Detail label={t('wallet.deposit.accountName')} value={order.bank.account_name} testId="deposit-account-name" />
          <Detail label={t('wallet.deposit.transferAmount')} value={amount} testId="deposit-amount" />
          <Detail label={t('wallet.deposit.reference')} value={order.reference} copy testId="deposit-reference" />
        </Stack>
      </SimpleGrid>
      <Alert color="yellow" variant="light" data-testid="deposit-expires">
        {t('wallet.deposit.expires', { time: formatDateTime(order.expires_at, language) })}
      </Alert>
    </Stack>
  );
}

/** A dialog's order to pay, new or shown again: what to transfer, and Done. */
function OrderToPay({ order, onDone }: { order: DepositOrderCreated; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <OrderInstructions order={order} />
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('wallet.deposit.done')}</Button>
      </Group>
    </Stack>
  );
}

/** The dialog: an amount, then the order to pay. */
function DepositDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [pending, setPending] = useState(false);
  const [order, setOrder] = useState<DepositOrderCreated | null>(null);

  const close = () => {
    setAmount('');
    setOrder(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      const created = await createDeposit(amount.replace(/[\s.,]/g, ''));
      setOrder(created);
      notify('success', t('wallet.deposit.created'));
      await client.invalidateQueries({ queryKey: walletKeys.all });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The spec's failure toast for a deposit order is its one report, as for a transfer (the dialog keeps the amount).
      notify('error', errorText(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('wallet.deposit.dialogTitle')} centered size="lg" closeButtonProps={{ 'aria-label': t('common.close') }}>
      {order ? (
        <OrderToPay order={order} onDone={close} />
      ) : (
        <form onSubmit={submit} noValidate data-testid="deposit-form">
          <Stack gap="sm">
            <TextInput
              label={t('wallet.deposit.amount')}
              description={t('wallet.deposit.amountHint', { min: formatMoney(MIN_DEPOSIT, 'VND', language) })}
              value={amount}
              onChange={(event) => setAmount(event.currentTarget.value)}
              required
              inputMode="numeric"
              autoComplete="off"
              data-autofocus
              rightSection={<Text size="xs">VND</Text>}
              rightSectionWidth={48}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={pending} disabled={!amount.trim()} data-testid="deposit-submit">
                {t('wallet.deposit.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** A waiting order shown again from the list: its code and what to transfer. */
function OrderDialog({ order, onClose }: { order: DepositOrderCreated | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={order !== null} onClose={onClose} title={t('wallet.deposit.dialogTitle')} centered size="lg" closeButtonProps={{ 'aria-label': t('common.close') }}>
      {order && <OrderToPay order={order} onDone={onClose} />}
    </Modal>
  );
}

/** /wallet/vnd's deposits: the button that opens the dialog, and the recent orders with their status. */
export function DepositSection() {
  const { t } = useTranslation();
  const language = useLanguage();
  const deposits = useDeposits();
  const [opened, setOpened] = useState(false);
  const [shown, setShown] = useState<DepositOrderCreated | null>(null);
  const enabled = deposits.data?.enabled ?? false;
  const show = async (id: string) => {
    try {
      setShown(await fetchDeposit(id));
    } catch (error) {
      // The error policy has shown its toast.
      if (!(error instanceof ApiError)) throw error;
    }
  };
  return (
    <Stack gap="sm">
      <Group>
        <Button onClick={() => setOpened(true)} disabled={!enabled} data-testid="deposit-open">
          {t('wallet.deposit.open')}
        </Button>
      </Group>
      {deposits.data && !enabled && (
        <Text size="sm" c="dimmed" data-testid="deposit-unavailable">
          {t('wallet.deposit.unavailable')}
        </Text>
      )}
      <DepositDialog opened={opened} onClose={() => setOpened(false)} />
      <OrderDialog order={shown} onClose={() => setShown(null)} />
      {deposits.isPending ? (
        <LoadingIndicator />
      ) : !deposits.data?.items.length ? (
        enabled && (
          <Text size="sm" c="dimmed" data-testid="deposits-empty">
            {t('wallet.deposit.empty')}
          </Text>
        )
      ) : (
        <DataTable rows={deposits.data.items} rowKey={(item) => item.id} minWidth={560} testId="deposits-table" label={t('wallet.deposit.orders')} rowTestId="deposit-row"
          rowProps={(item) => ({ 'data-reference': item.reference })}
          columns={[
            { header: t('wallet.deposit.time'), cell: (item) => <TimeCell at={item.created_at} language={language} /> },
            { header: t('wallet.deposit.referenceColumn'), text: (item) => item.reference, mono: true },
            { header: t('wallet.deposit.transferAmount'), cell: (item) => <AmountCell minor={item.amount} currency="VND" language={language} /> },
            {
              header: t('wallet.deposit.status'),
              cell: (item) => (
                <StatusBadge color={statusColor[item.status]} testId="deposit-status">
                  {t(`wallet.deposit.statuses.${item.status}`)}
                </StatusBadge>
              ),
            },
            {
              header: t('wallet.deposit.expiresAt'),
              cell: (item) => <Text size="sm">{item.status === 'paid' && item.paid_at ? '—' : formatDateTime(item.expires_at, language)}</Text>,
            },
          ]}
          actions={{
            label: t('wallet.deposit.actions'),
            cell: (item) =>
              item.status === 'pending' &&
              enabled && (
                <Button size="compact-sm" variant="light" onClick={() => void show(item.id)} data-testid="deposit-show" aria-label={t('wallet.deposit.showFor', { reference: item.reference })}>
                  {t('wallet.deposit.show')}
                </Button>
              ),
          }}
        />
      )}
    </Stack>
  );
}
