import './styles';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, Pagination, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney, mfaEndpoints, type Language, type TwoFactorMethod, type WalletCurrency, type WalletTransactionStatus } from '@portal/contracts';
import { RequiredTwoFactorDialog } from '../../components/dialogs/RequiredTwoFactorDialog';
import { TwoFactorInputDialog, type TwoFactorProof } from '../../components/dialogs/TwoFactorInputDialog';
import { StateBadge } from '../../components/cells';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ApiError, call, errorText, notify } from '../../lib/api';
import { partnerTransfer, transfer, transferRefusals, useBalances, usePartnerTransfers, useTransactions, walletKeys, type TransactionQuery } from './api';
import { useLanguage } from '../../lib/use-language';
import { LoadingIndicator } from '../../components/LoadingIndicator';

const PAGE_SIZE = 10;
const statusColor: Record<WalletTransactionStatus, string> = { paid: 'green', completed: 'green', unpaid: 'gray', failed: 'red', pending: 'yellow', rejected: 'red' };

/** Minor units (a string, so WHC's eight decimals stay exact) in the spec's format of the currency. */
export const formatBalance = (minor: string, currency: WalletCurrency, language: Language) => formatMoney({ minor }, currency, language);

/**
 * A transfer to another account of this portal (instant) or, when the server has a partner
 * configured, to a partner exchange wallet (pending until the partner confirms; the spec's constants).
 * The key makes a double click or a retry move money once. WHC asks for the second step every
 * time (the spec's permissions): with two-step off, the required-two-factor dialog leads to turning it on.
 */
function TransferForm({ currency }: { currency: WalletCurrency }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [pending, setPending] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [askCodeFor, setAskCodeFor] = useState<TwoFactorMethod | null>(null);
  const [twoStepMissing, setTwoStepMissing] = useState(false);
  const partnerOn = usePartnerTransfers(currency).data?.enabled === true;
  const [destination, setDestination] = useState<'here' | 'partner'>('here');
  const toPartner = partnerOn && destination === 'partner';

  const send = async (proof: Partial<TwoFactorProof> = {}) => {
    const body = { to, amount, note: note || undefined, idempotency_key: key, ...proof };
    if (toPartner) {
      const sent = await partnerTransfer(currency, body);
      if (sent.status === 'rejected') notify('error', t('wallet.transfer.partnerRejected'));
      else notify('success', t('wallet.transfer.partnerDone'));
    } else {
      await transfer(currency, body);
      notify('success', t('wallet.transfer.done'));
    }
    setTo('');
    setAmount('');
    setNote('');
    setKey(crypto.randomUUID());
    setAskCodeFor(null);
    await client.invalidateQueries({ queryKey: walletKeys.all });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      if (currency === 'WHC') {
        const { method } = await call(mfaEndpoints.status);
        if (method) setAskCodeFor(method);
        else setTwoStepMissing(true);
        return;
      }
      await send();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The spec's failure toast is the one report of a refused transfer (the form keeps what was typed);
      // the API client's policy has already shown any other status (a declined re-authentication, 429).
      if (error.status !== null && transferRefusals.includes(error.status)) notify('error', errorText(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
    <form onSubmit={submit} noValidate data-testid="transfer-form">
      <Stack gap="sm" maw={420}>
        {partnerOn && (
          <Stack gap={6}>
            <Text size="sm" fw={500} id={`transfer-destination-${currency}`}>
              {t('wallet.transfer.destination')}
            </Text>
            <SegmentedControl
              aria-labelledby={`transfer-destination-${currency}`}
              data={[
                { value: 'here', label: t('wallet.transfer.here') },
                { value: 'partner', label: t('wallet.transfer.partner') },
              ]}
              value={destination}
              onChange={(value) => {
                setDestination(value === 'partner' ? 'partner' : 'here');
                // Another destination is another transfer: a new key.
                setKey(crypto.randomUUID());
              }}
              style={{ alignSelf: 'flex-start' }}
              data-testid="transfer-destination"
            />
            {toPartner && (
              <Text size="xs" c="dimmed">
                {t('wallet.transfer.partnerDescription')}
              </Text>
            )}
          </Stack>
        )}
        <TextInput label={t('wallet.transfer.to')} description={t(toPartner ? 'wallet.transfer.partnerToHint' : 'wallet.transfer.toHint')} value={to} onChange={(event) => setTo(event.currentTarget.value)} required autoComplete="off" />
        <TextInput label={t('wallet.transfer.amount')} value={amount} onChange={(event) => setAmount(event.currentTarget.value)} required inputMode="decimal" rightSection={<Text size="xs">{currency}</Text>} rightSectionWidth={48} />
        <TextInput label={t('wallet.transfer.note')} value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={200} />
        <Group>
          <Button type="submit" loading={pending} disabled={!to.trim() || !amount.trim()} data-testid="transfer-submit">
            {t('wallet.transfer.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
      {askCodeFor && (
        <TwoFactorInputDialog
          opened
          onClose={() => setAskCodeFor(null)}
          method={askCodeFor}
          description={t('wallet.transfer.codeDescription')}
          submitLabel={t('wallet.transfer.submit')}
          onSubmit={(proof) => send(proof)}
        />
      )}
      <RequiredTwoFactorDialog opened={twoStepMissing} onClose={() => setTwoStepMissing(false)} />
    </>
  );
}

/** Money on its way in that the ledger has not credited yet (a WHC deposit waiting for its confirmations): shown first, pending. */
export interface PendingIncoming {
  id: string;
  amount: string;
  created_at: string;
  note: string;
}

/** One line of the transactions list: a ledger movement, or a deposit not credited yet. */
interface TransactionRow {
  key: string;
  at: string;
  direction: 'in' | 'out';
  amount: string;
  balance: string | null;
  destination: string | null;
  status: WalletTransactionStatus;
  note: string;
}

/** The transactions of one currency with the spec's fields, filtered by direction and status, paged. */
function Transactions({ currency, pendingIncoming = [] }: { currency: WalletCurrency; pendingIncoming?: PendingIncoming[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [query, setQuery] = useState<TransactionQuery>({ page: 1, page_size: PAGE_SIZE });
  const transactions = useTransactions(currency, query);
  const statuses: WalletTransactionStatus[] = ['completed', 'paid', 'pending', 'failed', 'rejected', 'unpaid'];
  const total = transactions.data?.total ?? 0;
  const incoming = query.page === 1 && query.direction !== 'out' && (!query.status || query.status === 'pending') ? pendingIncoming : [];
  // Money on its way in first (pending, no balance yet), then the ledger's movements.
  const rows: TransactionRow[] = [
    ...incoming.map((item) => ({ key: `incoming-${item.id}`, at: item.created_at, direction: 'in' as const, amount: item.amount, balance: null, destination: null, status: 'pending' as const, note: item.note })),
    ...(transactions.data?.items ?? []).map((item) => ({
      key: `${item.id}-${item.direction}`,
      at: item.created_at,
      direction: item.direction,
      amount: item.amount,
      balance: item.balance,
      destination: item.destination ?? null,
      status: item.status,
      note: item.note ?? '',
    })),
  ];
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Select
          label={t('wallet.transactions.direction')}
          data={[
            { value: 'all', label: t('wallet.transactions.all') },
            { value: 'in', label: t('wallet.transactions.in') },
            { value: 'out', label: t('wallet.transactions.out') },
          ]}
          value={query.direction ?? 'all'}
          onChange={(value) => setQuery({ ...query, page: 1, direction: value === 'in' || value === 'out' ? value : undefined })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label={t('wallet.transactions.status')}
          data={[{ value: 'all', label: t('wallet.transactions.all') }, ...statuses.map((status) => ({ value: status, label: t(`billing.orders.statuses.${status}`) }))]}
          value={query.status ?? 'all'}
          onChange={(value) => setQuery({ ...query, page: 1, status: statuses.find((status) => status === value) })}
          allowDeselect={false}
          w={180}
        />
      </Group>
      {transactions.isPending ? (
        <LoadingIndicator />
      ) : !transactions.data?.items.length && !incoming.length ? (
        <Text size="sm" c="dimmed" data-testid="transactions-empty">
          {t('wallet.transactions.empty')}
        </Text>
      ) : (
        <DataTable rows={rows} rowKey={(row) => row.key} minWidth={720} testId="transactions-table" rowTestId="transaction-row"
          columns={[
            { header: t('wallet.transactions.time'), text: (row) => formatDateTime(row.at, language) },
            { header: t('wallet.transactions.direction'), text: (row) => t(`wallet.transactions.${row.direction}`) },
            {
              header: t('wallet.transactions.amount'),
              cell: (row) => (
                <Text size="sm" fw={500}>
                  {row.direction === 'out' ? '−' : '+'}
                  {formatBalance(row.amount, currency, language)}
                </Text>
              ),
            },
            { header: t('wallet.transactions.balance'), text: (row) => row.balance === null ? '—' : formatBalance(row.balance, currency, language) },
            { header: t('wallet.transactions.destination'), text: (row) => row.destination ?? '—' },
            {
              header: t('wallet.transactions.status'),
              cell: (row) => (
                <StateBadge color={statusColor[row.status]}>{t(`billing.orders.statuses.${row.status}`)}</StateBadge>
              ),
            },
            { header: t('wallet.transactions.note'), text: (row) => row.note },
          ]}
        />
      )}
      {total > PAGE_SIZE && <Pagination total={Math.ceil(total / PAGE_SIZE)} value={query.page} onChange={(page) => setQuery({ ...query, page })} size="sm" />}
    </Stack>
  );
}

/** One currency's page: the balance, what the currency's page adds (VND's deposits), a transfer to another account, the transactions. */
export function CurrencyWallet({
  currency,
  title,
  description,
  children,
  pendingIncoming,
}: {
  currency: WalletCurrency;
  title: string;
  description: string;
  children?: ReactNode;
  pendingIncoming?: PendingIncoming[];
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const balances = useBalances();
  const minor = balances.data?.balances.find((item) => item.currency === currency)?.minor;
  return (
    <Stack gap="lg">
      <PageHeader title={title} description={description} />
      <Section title={t('wallet.balance')}>
        {minor === undefined ? (
          <LoadingIndicator />
        ) : (
          <Title order={3} data-testid="wallet-balance">
            {formatBalance(minor, currency, language)}
          </Title>
        )}
      </Section>
      {children}
      <Section title={t('wallet.transfer.title')} description={t('wallet.transfer.description')}>
        <TransferForm currency={currency} />
      </Section>
      <Section title={t('wallet.transactions.title')} description={t('wallet.transactionsDescription')}>
        <Transactions currency={currency} pendingIncoming={pendingIncoming} />
      </Section>
    </Stack>
  );
}
