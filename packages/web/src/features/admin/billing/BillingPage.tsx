import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Code.css';
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Code, Group, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMinor, plans, type AdminOrder, type Plan } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { useLanguage } from '../../../lib/use-language';
import { ListResults } from '../ListResults';
import { LoadFailed } from '../LoadFailed';
import { SearchForm } from '../SearchForm';
import { TwoLines } from '../TwoLines';
import { useMovesMoney } from '../operator-context';
import { useCreatePromo, useDisablePromo, useIssueLicenses, useLicenses, useOrders, usePromoCodes, useRefund, useRevokeLicense } from './api';
import { ReasonDialog } from '../ReasonDialog';

const lifetimePlans = (plans as readonly Plan[]).filter((plan) => plan.lifetime).map((plan) => plan.id);

/** /admin/billing: orders (and their refund), promo codes and AppSumo licence codes. */
export function BillingPage() {
  const { t } = useTranslation();
  const movesMoney = useMovesMoney();
  return (
    <Stack gap="lg" data-testid="admin-billing">
      <PageHeader title={t('admin.billing.title')} description={t('admin.billing.description')} />
      <Orders movesMoney={movesMoney} />
      <PromoCodes movesMoney={movesMoney} />
      <Licenses movesMoney={movesMoney} />
    </Stack>
  );
}

function Orders({ movesMoney }: { movesMoney: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [q, setQ] = useState('');
  const orders = useOrders(q);
  const refund = useRefund();
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  return (
    <Section title={t('admin.billing.orders.title')}>
      <Stack gap="sm">
        <SearchForm
          label={t('admin.billing.orders.query')}
          onSearch={setQ}
          inputTestId="orders-query"
          buttonLabel={t('admin.billing.search')}
          buttonTestId="orders-search"
        />
        <ListResults query={orders} rows={orders.data?.orders} empty={t('admin.billing.orders.empty')}>
          {(rows) => (
            <DataTable<AdminOrder> rows={rows} rowKey={(row) => row.id} testId="orders-table" rowTestId="orders-row" label={t('admin.billing.orders.title')} minWidth={340}
              columns={[
                { header: t('admin.billing.orders.number'), cell: (row) => <TwoLines first={row.number} second={formatDate(row.created_at, language)} /> },
                { header: t('admin.billing.orders.buyer'), cell: (row) => <TwoLines first={row.email ?? '—'} second={row.plan} /> },
                {
                  header: t('admin.billing.orders.total'),
                  cell: (row) => (
                    <Stack gap={4} align="flex-start">
                      <span>{formatMinor(row.total, row.currency, language)}</span>
                      <Badge variant="light" color={row.refunded_at ? 'gray' : row.status === 'paid' ? 'green' : 'yellow'}>
                        {row.refunded_at ? t('admin.billing.orders.refunded') : row.status}
                      </Badge>
                    </Stack>
                  ),
                },
              ]}
              actions={
                movesMoney
                  ? {
                      label: t('admin.billing.actions'),
                      cell: (row) =>
                        row.status === 'paid' && !row.refunded_at ? (
                          <Button size="xs" variant="light" color="red" onClick={() => setRefunding(row)} data-testid="order-refund">
                            {t('admin.billing.orders.refund')}
                          </Button>
                        ) : null,
                    }
                  : undefined
              }
            />
          )}
        </ListResults>
      </Stack>
      <ReasonDialog
        opened={refunding !== null}
        title={t('admin.billing.orders.refundTitle', { number: refunding?.number ?? '' })}
        body={refunding ? t('admin.billing.orders.refundBody', { total: formatMinor(refunding.total, refunding.currency, language), email: refunding.email ?? '—' }) : ''}
        confirmLabel={t('admin.billing.orders.refund')}
        danger
        onClose={() => setRefunding(null)}
        onConfirm={(reason) => refund.mutateAsync({ id: refunding!.id, reason })}
      />
    </Section>
  );
}

function PromoCodes({ movesMoney }: { movesMoney: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const promos = usePromoCodes();
  const create = useCreatePromo();
  const disable = useDisablePromo();
  const [disabling, setDisabling] = useState<string | null>(null);
  const [form, setForm] = useState({ code: '', kind: 'percent', value: '', currency: 'USD', reason: '' });
  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const discount = form.kind === 'percent' ? { percent: form.value.trim() } : { amount: form.value.trim(), currency: form.currency as 'USD' | 'VND' };
    create.mutate({ code: form.code.trim(), ...discount, reason: form.reason.trim() }, { onSuccess: () => setForm((current) => ({ ...current, code: '', value: '', reason: '' })) });
  };
  return (
    <Section title={t('admin.billing.promo.title')}>
      <Stack gap="sm">
        {promos.data && promos.data.promo_codes.length === 0 && <Text>{t('admin.billing.promo.empty')}</Text>}
        {promos.data && promos.data.promo_codes.length > 0 && (
          <DataTable rows={promos.data.promo_codes} rowKey={(row) => row.code} testId="promo-table" rowTestId="promo-row" label={t('admin.billing.promo.title')} minWidth={340}
            columns={[
              { header: t('admin.billing.promo.code'), cell: (row) => <TwoLines first={row.code} second={row.discount} /> },
              { header: t('admin.billing.promo.plans'), cell: (row) => <TwoLines first={row.plans.join(', ') || t('admin.billing.promo.anyPlan')} second={row.expires_at ? formatDate(row.expires_at, language) : '—'} /> },
              { header: t('admin.billing.promo.state'), cell: (row) => <TwoLines first={t(`admin.billing.promo.states.${row.state === 'used up' ? 'usedUp' : row.state}`)} second={`${row.redemptions}/${row.max_redemptions ?? '∞'}`} /> },
            ]}
            actions={
              movesMoney
                ? {
                    label: t('admin.billing.actions'),
                    cell: (row) =>
                      row.state === 'active' ? (
                        <Button size="xs" variant="light" color="red" onClick={() => setDisabling(row.code)} data-testid="promo-disable">
                          {t('admin.billing.promo.disable')}
                        </Button>
                      ) : null,
                  }
                : undefined
            }
          />
        )}
        {movesMoney && (
          <form onSubmit={submit} noValidate aria-label={t('admin.billing.promo.add')}>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput label={t('admin.billing.promo.code')} value={form.code} maxLength={32} onChange={(event) => set('code')(event.currentTarget.value)} data-testid="promo-code" />
              <NativeSelect
                label={t('admin.billing.promo.kind')}
                value={form.kind}
                onChange={(event) => set('kind')(event.currentTarget.value)}
                data={[
                  { value: 'percent', label: t('admin.billing.promo.percent') },
                  { value: 'amount', label: t('admin.billing.promo.amount') },
                ]}
              />
              <TextInput label={t('admin.billing.promo.value')} value={form.value} maxLength={15} inputMode="decimal" onChange={(event) => set('value')(event.currentTarget.value)} data-testid="promo-value" />
              {form.kind === 'amount' && <NativeSelect label={t('admin.billing.promo.currency')} value={form.currency} onChange={(event) => set('currency')(event.currentTarget.value)} data={['USD', 'VND']} />}
              <TextInput label={t('admin.billing.reason')} value={form.reason} maxLength={500} onChange={(event) => set('reason')(event.currentTarget.value)} style={{ flex: '1 1 12rem' }} data-testid="promo-reason" />
              <Button type="submit" loading={create.isPending} disabled={!form.code.trim() || !form.value.trim() || form.reason.trim().length < 3} data-testid="promo-add">
                {t('admin.billing.promo.add')}
              </Button>
            </Group>
            <LoadFailed when={create.isError} error={create.error} />
          </form>
        )}
      </Stack>
      <ReasonDialog
        opened={disabling !== null}
        title={t('admin.billing.promo.disableTitle', { code: disabling ?? '' })}
        body={t('admin.billing.promo.disableBody')}
        confirmLabel={t('admin.billing.promo.disable')}
        danger
        onClose={() => setDisabling(null)}
        onConfirm={(reason) => disable.mutateAsync({ code: disabling!, reason })}
      />
    </Section>
  );
}

function Licenses({ movesMoney }: { movesMoney: boolean }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const licenses = useLicenses();
  const issue = useIssueLicenses();
  const revoke = useRevokeLicense();
  const [plan, setPlan] = useState(lifetimePlans[0] ?? '');
  const [count, setCount] = useState<number | string>(1);
  const [reason, setReason] = useState('');
  const [revokeCode, setRevokeCode] = useState('');
  const [revokeReason, setRevokeReason] = useState('');
  return (
    <Section title={t('admin.billing.licenses.title')}>
      <Stack gap="sm">
        {licenses.data && licenses.data.licenses.length === 0 && <Text>{t('admin.billing.licenses.empty')}</Text>}
        {licenses.data && licenses.data.licenses.length > 0 && (
          <DataTable rows={licenses.data.licenses} rowKey={(row) => row.code_hash} testId="licenses-table" rowTestId="licenses-row" label={t('admin.billing.licenses.title')} minWidth={340}
            columns={[
              { header: t('admin.billing.licenses.hash'), cell: (row) => <TwoLines first={<Code>{row.code_hash}</Code>} second={row.plan} /> },
              { header: t('admin.billing.licenses.state'), cell: (row) => <TwoLines first={t(`admin.billing.licenses.states.${row.state}`)} second={formatDate(row.at, language)} /> },
              { header: t('admin.billing.licenses.who'), cell: (row) => row.email ?? '—' },
            ]}
          />
        )}
        {movesMoney && (
          <>
            <form
              noValidate
              aria-label={t('admin.billing.licenses.issue')}
              onSubmit={(event) => {
                event.preventDefault();
                issue.mutate({ plan, count: Number(count), reason: reason.trim() });
              }}
            >
              <Group align="flex-end" gap="sm" wrap="wrap">
                <NativeSelect label={t('admin.billing.licenses.plan')} value={plan} onChange={(event) => setPlan(event.currentTarget.value)} data={lifetimePlans} />
                <NumberInput label={t('admin.billing.licenses.count')} value={count} onChange={setCount} min={1} max={1000} allowDecimal={false} w={120} />
                <TextInput label={t('admin.billing.reason')} value={reason} maxLength={500} onChange={(event) => setReason(event.currentTarget.value)} style={{ flex: '1 1 12rem' }} />
                <Button type="submit" loading={issue.isPending} disabled={reason.trim().length < 3}>
                  {t('admin.billing.licenses.issue')}
                </Button>
              </Group>
            </form>
            <LoadFailed when={issue.isError} error={issue.error} />
            {issue.data && (
              <Alert color="blue" title={t('admin.billing.licenses.shownOnce')} data-testid="licenses-issued">
                <Stack gap={4}>
                  {issue.data.codes.map((code) => (
                    <Code key={code} style={{ wordBreak: 'break-all' }}>
                      {code}
                    </Code>
                  ))}
                </Stack>
              </Alert>
            )}
            <form
              noValidate
              aria-label={t('admin.billing.licenses.revoke')}
              onSubmit={(event) => {
                event.preventDefault();
                revoke.mutate({ code: revokeCode.trim(), reason: revokeReason.trim() }, { onSuccess: () => setRevokeCode('') });
              }}
            >
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput label={t('admin.billing.licenses.code')} value={revokeCode} maxLength={2000} onChange={(event) => setRevokeCode(event.currentTarget.value)} style={{ flex: '1 1 16rem' }} />
                <TextInput label={t('admin.billing.reason')} value={revokeReason} maxLength={500} onChange={(event) => setRevokeReason(event.currentTarget.value)} style={{ flex: '1 1 12rem' }} />
                <Button type="submit" color="red" variant="light" loading={revoke.isPending} disabled={!revokeCode.trim() || revokeReason.trim().length < 3}>
                  {t('admin.billing.licenses.revoke')}
                </Button>
              </Group>
            </form>
            <LoadFailed when={revoke.isError} error={revoke.error} />
          </>
        )}
      </Stack>
    </Section>
  );
}
