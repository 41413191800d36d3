import './styles';
import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { mfaEndpoints, type ChainWithdrawalStatus, type TwoFactorMethod } from '@portal/contracts';
import { PasswordDialog, type PasswordCredentials } from '../../components/dialogs/PasswordDialog';
import { RequiredTwoFactorDialog } from '../../components/dialogs/RequiredTwoFactorDialog';
import { TwoFactorInputDialog, type TwoFactorProof } from '../../components/dialogs/TwoFactorInputDialog';
import { ApiError, call, errorText, notify } from '../../lib/api';
import { useWithdrawals, walletKeys, withdraw, withdrawalKeys } from './api';
import { DataTable } from '../../components/DataTable';
import { useLanguage } from '../../lib/use-language';
import { AmountCell, short, StatusBadge, TimeCell, TransactionLink } from './cells';
import { LoadingIndicator } from '../../components/LoadingIndicator';

const statusColor: Record<ChainWithdrawalStatus, string> = { pending: 'yellow', completed: 'green', failed: 'red' };
/** 0x + 40 hex digits; the checksum is the server's to check (viem). */
const ADDRESS_SHAPE = /^0x[0-9a-fA-F]{40}$/;

/**
 * WHC to a BEP20 address, beside the transfer form and like it: the key makes a double click or
 * a retry send once, and two-step is needed with a code every time (the required-two-factor
 * dialog leads to turning it on). A first withdrawal to an address asks for the password too:
 * when the server says the address is new, the password dialog asks for both.
 */
function WithdrawalForm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [addressError, setAddressError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [method, setMethod] = useState<TwoFactorMethod | null>(null);
  const [askCode, setAskCode] = useState(false);
  const [askPassword, setAskPassword] = useState(false);
  const [twoStepMissing, setTwoStepMissing] = useState(false);

  const send = async (proof: Partial<TwoFactorProof> & { password?: string }) => {
    await withdraw({ address: address.trim(), amount: amount.trim(), idempotency_key: key, ...proof });
    notify('success', t('wallet.withdrawal.done'));
    setAddress('');
    setAmount('');
    setKey(crypto.randomUUID());
    setAskCode(false);
    setAskPassword(false);
    await Promise.all([client.invalidateQueries({ queryKey: walletKeys.all }), client.invalidateQueries({ queryKey: withdrawalKeys.list })]);
  };

  /** From the code dialog: a new address turns it into the password dialog (no code was spent). */
  const sendWithCode = async (proof: TwoFactorProof) => {
    try {
      await send(proof);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'wallet.password_required') {
        setAskCode(false);
        setAskPassword(true);
        return;
      }
      if (error instanceof ApiError && (error.code.startsWith('wallet.') || error.status === 503)) {
        // Not the code's fault: the dialog closes and the failure toast says why, once, as for a transfer.
        setAskCode(false);
        notify('error', errorText(error));
        return;
      }
      throw error;
    }
  };

  const sendWithPassword = async (credentials: PasswordCredentials) => {
    try {
      await send({ password: credentials.password, ...(credentials.recovery_code ? { recovery_code: credentials.recovery_code } : { code: credentials.code ?? '' }) });
    } catch (error) {
      if (error instanceof ApiError && error.code.startsWith('wallet.')) {
        setAskPassword(false);
        notify('error', errorText(error));
        return;
      }
      throw error;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A mistyped address is the field's own error; the server's refusals are the failure toast.
    if (!ADDRESS_SHAPE.test(address.trim())) {
      setAddressError(t('errors.wallet.address_invalid'));
      return;
    }
    setAddressError(null);
    setPending(true);
    try {
      const status = await call(mfaEndpoints.status);
      if (!status.method) {
        setTwoStepMissing(true);
        return;
      }
      setMethod(status.method);
      setAskCode(true);
    } catch (error) {
      // The API client's policy has shown why the two-step status could not be read.
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <form onSubmit={submit} noValidate data-testid="withdrawal-form">
        <Stack gap="sm" maw={520}>
          <TextInput
            label={t('wallet.withdrawal.address')}
            description={t('wallet.withdrawal.addressHint')}
            value={address}
            onChange={(event) => {
              setAddress(event.currentTarget.value);
              setAddressError(null);
            }}
            error={addressError}
            required
            autoComplete="off"
            spellCheck={false}
            ff="monospace"
            data-testid="withdrawal-address"
          />
          <TextInput
            label={t('wallet.transfer.amount')}
            value={amount}
            onChange={(event) => setAmount(event.currentTarget.value)}
            required
            inputMode="decimal"
            rightSection={<Text size="xs">WHC</Text>}
            rightSectionWidth={48}
            data-testid="withdrawal-amount"
          />
          <Group>
            <Button type="submit" loading={pending} disabled={!address.trim() || !amount.trim()} data-testid="withdrawal-submit">
              {t('wallet.withdrawal.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      {askCode && method && (
        <TwoFactorInputDialog
          opened
          onClose={() => setAskCode(false)}
          method={method}
          description={t('wallet.withdrawal.codeDescription')}
          submitLabel={t('wallet.withdrawal.submit')}
          onSubmit={sendWithCode}
        />
      )}
      <PasswordDialog opened={askPassword} onClose={() => setAskPassword(false)} title={t('wallet.withdrawal.newAddressTitle')} method={method} submitLabel={t('wallet.withdrawal.submit')} onSubmit={sendWithPassword}>
        <Text size="sm">{t('wallet.withdrawal.newAddress', { address: address.trim() })}</Text>
      </PasswordDialog>
      <RequiredTwoFactorDialog opened={twoStepMissing} onClose={() => setTwoStepMissing(false)} />
    </>
  );
}

/** /wallet/whc's withdrawals: the form (when this server sends WHC on chain) and the recent ones with their status. */
export function WithdrawalSection() {
  const { t } = useTranslation();
  const language = useLanguage();
  const withdrawals = useWithdrawals();
  const enabled = withdrawals.data?.enabled ?? false;
  if (withdrawals.isPending) return <LoadingIndicator />;
  return (
    <Stack gap="md">
      {enabled ? (
        <WithdrawalForm />
      ) : (
        <Text size="sm" c="dimmed" data-testid="withdrawal-unavailable">
          {t('errors.wallet.chain_unavailable')}
        </Text>
      )}
      {!!withdrawals.data?.items.length && (
        <DataTable rows={withdrawals.data.items} rowKey={(item) => item.id} minWidth={640} testId="withdrawals-table" label={t('wallet.withdrawal.recent')} rowTestId="withdrawal-row"
          columns={[
            { header: t('wallet.transactions.time'), cell: (item) => <TimeCell at={item.created_at} language={language} /> },
            {
              header: t('wallet.withdrawal.address'),
              cell: (item) => (
                <Text size="sm" ff="monospace" title={item.address}>
                  {short(item.address)}
                </Text>
              ),
            },
            { header: t('wallet.transactions.amount'), cell: (item) => <AmountCell minor={item.amount} currency="WHC" language={language} /> },
            {
              header: t('wallet.transactions.status'),
              cell: (item) => (
                <StatusBadge color={statusColor[item.status]} testId="withdrawal-status">
                  {t(`wallet.withdrawal.statuses.${item.status}`)}
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
