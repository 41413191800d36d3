import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Badge.css';
import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney, type WalletCurrency } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { CursorPager } from '../CursorPager';
import { useCursorPages } from '../cursor-pages';
import { ListResults } from '../ListResults';
import { SearchForm } from '../SearchForm';
import { TwoLines } from '../TwoLines';
import { ReasonDialog } from '../ReasonDialog';
import { useMovesMoney } from '../operator-context';
import { useLedgerAccounts, useLedgerEntries, usePayoutAction, usePayoutQueue } from './api';

type QueueItem = NonNullable<ReturnType<typeof usePayoutQueue>['data']>['queue'][number];

const money = (minor: string, currency: WalletCurrency, language: 'en' | 'vi') => formatMoney({ minor: BigInt(minor) }, currency, language);

/** /admin/wallet: the payout queue (finance and owners) and a ledger account's entries. */
export function WalletPage() {
  const { t } = useTranslation();
  const movesMoney = useMovesMoney();
  return (
    <Stack gap="lg" data-testid="admin-wallet">
      <PageHeader title={t('admin.wallet.title')} description={t('admin.wallet.description')} />
      {movesMoney && <PayoutQueue />}
      <Ledger />
    </Stack>
  );
}

function PayoutQueue() {
  const { t } = useTranslation();
  const language = useLanguage();
  const queue = usePayoutQueue(true);
  const act = usePayoutAction();
  const [pending, setPending] = useState<{ action: 'approvePayout' | 'holdPayout'; item: QueueItem } | null>(null);
  const items = queue.data?.queue ?? [];
  return (
    <Section title={t('admin.wallet.queue.title')}>
      <Stack gap="sm">
        <Text size="sm">{t('admin.wallet.queue.explain')}</Text>
        {queue.data && items.length === 0 && <Text data-testid="payouts-empty">{t('admin.wallet.queue.empty')}</Text>}
        {items.length > 0 && (
          <DataTable<QueueItem> rows={items} rowKey={(row) => `${row.user_id}:${row.currency}`} testId="payouts-table" rowTestId="payouts-row" label={t('admin.wallet.queue.title')} minWidth={340}
            columns={[
              { header: t('admin.wallet.queue.researcher'), cell: (row) => row.email ?? row.user_id },
              { header: t('admin.wallet.queue.amount'), cell: (row) => money(row.amount_minor, row.currency, language) },
              { header: t('admin.wallet.queue.rewards'), cell: (row) => row.rewards },
              {
                header: t('admin.wallet.queue.state'),
                cell: (row) => (
                  <Badge variant="light" color={row.held > 0 ? 'yellow' : row.payout_method ? 'green' : 'gray'}>
                    {row.held > 0 ? t('admin.wallet.queue.held', { count: row.held }) : row.payout_method ? t('admin.wallet.queue.ready') : t('admin.wallet.queue.noMethod')}
                  </Badge>
                ),
              },
              { header: t('admin.wallet.queue.since'), cell: (row) => formatDate(row.oldest_at, language) },
            ]}
            actions={{
              label: t('admin.wallet.actions'),
              cell: (row) => (
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <Button size="xs" onClick={() => setPending({ action: 'approvePayout', item: row })} disabled={!row.payout_method} data-testid="payout-approve">
                    {t('admin.wallet.queue.approve')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setPending({ action: 'holdPayout', item: row })} disabled={row.held === row.rewards} data-testid="payout-hold">
                    {t('admin.wallet.queue.hold')}
                  </Button>
                </Group>
              ),
            }}
          />
        )}
      </Stack>
      <ReasonDialog
        opened={pending !== null}
        title={pending ? t(`admin.wallet.queue.${pending.action === 'approvePayout' ? 'approveTitle' : 'holdTitle'}`, { who: pending.item.email ?? pending.item.user_id }) : ''}
        body={pending ? t(`admin.wallet.queue.${pending.action === 'approvePayout' ? 'approveBody' : 'holdBody'}`, { amount: money(pending.item.amount_minor, pending.item.currency, language) }) : ''}
        confirmLabel={pending?.action === 'holdPayout' ? t('admin.wallet.queue.hold') : t('admin.wallet.queue.approve')}
        onClose={() => setPending(null)}
        onConfirm={(reason) => act.mutateAsync({ action: pending!.action, userId: pending!.item.user_id, currency: pending!.item.currency, reason })}
      />
    </Section>
  );
}

function Ledger() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [owner, setOwner] = useState('');
  const [accountId, setAccountId] = useState<string | null>(null);
  const pages = useCursorPages();
  const accounts = useLedgerAccounts(owner);
  const entries = useLedgerEntries(accountId, pages.cursor);
  const submit = (text: string) => {
    setOwner(text);
    setAccountId(null);
    pages.first();
  };
  return (
    <Section title={t('admin.wallet.ledger.title')}>
      <Stack gap="sm">
        <SearchForm
          label={t('admin.wallet.ledger.owner')}
          description={t('admin.wallet.ledger.ownerHint')}
          onSearch={submit}
          needsText
          inputTestId="ledger-owner"
          buttonLabel={t('admin.wallet.ledger.find')}
          buttonTestId="ledger-search"
        />
        <ListResults query={accounts} rows={accounts.data?.accounts} empty={t('admin.wallet.ledger.noAccounts')}>
          {(found) => (
            <Group gap="xs" wrap="wrap" role="group" aria-label={t('admin.wallet.ledger.accounts')}>
              {found.map((account) => (
                <Button
                  key={account.id}
                  variant={account.id === accountId ? 'filled' : 'default'}
                  aria-pressed={account.id === accountId}
                  onClick={() => {
                    setAccountId(account.id);
                    pages.first();
                  }}
                  data-testid="ledger-account"
                >
                  {`${account.system_name ?? account.currency} · ${money(account.balance_minor, account.currency, language)}`}
                </Button>
              ))}
            </Group>
          )}
        </ListResults>
        {entries.data && entries.data.entries.length === 0 && <Text>{t('admin.wallet.ledger.noEntries')}</Text>}
        {entries.data && entries.data.entries.length > 0 && (
          <DataTable rows={entries.data.entries} rowKey={(row) => row.posting_id} testId="ledger-table" rowTestId="ledger-row" label={t('admin.wallet.ledger.entries')} minWidth={340}
            columns={[
              { header: t('admin.wallet.ledger.date'), cell: (row) => <TwoLines first={formatDate(row.created_at, language)} second={row.kind} /> },
              { header: t('admin.wallet.ledger.note'), cell: (row) => row.note ?? '—' },
              {
                header: t('admin.wallet.ledger.amount'),
                cell: (row) => <TwoLines first={money(row.amount_minor, entries.data.account.currency, language)} second={t('admin.wallet.ledger.balanceAfter', { balance: money(row.balance_after_minor, entries.data.account.currency, language) })} />,
              },
            ]}
          />
        )}
        <CursorPager pages={pages} nextCursor={entries.data?.next_cursor} previousLabel={t('admin.wallet.ledger.newer')} nextLabel={t('admin.wallet.ledger.older')} />
      </Stack>
    </Section>
  );
}
