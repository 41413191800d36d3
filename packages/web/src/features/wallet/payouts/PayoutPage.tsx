import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Switch.css';
import { useEffect, useState } from 'react';
import { Anchor, Button, Group, Radio, Stack, Switch, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { currencies, formatMoney, paths, type Language, type PayoutSettings, type WalletCurrency } from '@portal/contracts';
import { DataTable } from '../../../components/DataTable';
import { LoadingIndicator } from '../../../components/LoadingIndicator';
import { PageHeader } from '../../../components/PageHeader';
import { Section } from '../../../components/Section';
import { notify, notifyFailure } from '../../../lib/api';
import { usePayoutSettings, useSetPayoutMethod, useSetProfilePublic } from './api';
import { formatDay, formatMonth } from '../../../lib/dates';
import { useLanguage } from '../../../lib/use-language';

const money = (minor: string, currency: WalletCurrency, language: Language) => formatMoney({ minor }, currency, language);

/** /wallet/payout: the wallet rewards are paid into (the password to change it), the rewards waiting, the monthly statements, the public profile. */
export function PayoutPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const settings = usePayoutSettings();
  return (
    <Stack gap="lg">
      <PageHeader title={t('wallet.payouts.title')} description={t('wallet.payouts.description')} />
      <Anchor component={Link} to={paths.wallet} size="sm">
        {t('wallet.payouts.back')}
      </Anchor>
      {!settings.data ? (
        <LoadingIndicator />
      ) : (
        <>
          <MethodSection settings={settings.data} language={language} />
          <PendingSection settings={settings.data} language={language} />
          <StatementsSection settings={settings.data} language={language} />
          <ProfileSection settings={settings.data} />
        </>
      )}
    </Stack>
  );
}

interface SectionProps {
  settings: PayoutSettings;
  language: Language;
}

function MethodSection({ settings, language }: SectionProps) {
  const { t } = useTranslation();
  const save = useSetPayoutMethod();
  const [choice, setChoice] = useState<string | null>(settings.payout_currency);
  useEffect(() => setChoice(settings.payout_currency), [settings.payout_currency]);
  const submit = async () => {
    if (!choice) return;
    try {
      await save.mutateAsync(choice as WalletCurrency);
      notify('success', t('wallet.payouts.method.saved'));
    } catch (error) {
      notifyFailure(error, t('wallet.payouts.method.failed'));
    }
  };
  return (
    <Section title={t('wallet.payouts.method.title')} description={t('wallet.payouts.method.description')}>
      {!settings.payout_currency && (
        <Text size="sm" data-testid="payout-method-none">
          {t('wallet.payouts.method.none')}
        </Text>
      )}
      <Radio.Group value={choice} onChange={setChoice} label={t('wallet.payouts.method.label')} data-testid="payout-method">
        <Group mt="xs" gap="lg">
          {currencies.map((currency) => (
            <Radio key={currency} value={currency} label={t(`wallet.payouts.currency.${currency}`)} />
          ))}
        </Group>
      </Radio.Group>
      <Text size="sm" c="dimmed">
        {t('wallet.payouts.method.password')} {t('wallet.payouts.method.next', { date: formatDay(`${settings.next_payout}T00:00:00Z`, language) })}
      </Text>
      <Group>
        <Button onClick={() => void submit()} loading={save.isPending} disabled={!choice || choice === settings.payout_currency} data-testid="payout-method-save">
          {t('wallet.payouts.method.save')}
        </Button>
      </Group>
    </Section>
  );
}

function PendingSection({ settings, language }: SectionProps) {
  const { t } = useTranslation();
  return (
    <Section title={t('wallet.payouts.pending.title')} description={t('wallet.payouts.pending.description')}>
      {settings.pending.length === 0 ? (
        <Text size="sm" data-testid="payout-pending-empty">
          {t('wallet.payouts.pending.empty')}
        </Text>
      ) : (
        <DataTable rows={settings.pending} rowKey={(reward) => reward.id} minWidth={420} testId="payout-pending" rowTestId="payout-pending-row" label={t('wallet.payouts.pending.title')}
          columns={[
            { header: t('wallet.payouts.pending.program'), text: (reward) => reward.program_alias },
            { header: t('wallet.payouts.pending.amount'), text: (reward) => money(reward.amount_minor, reward.currency, language) },
            { header: t('wallet.payouts.pending.date'), text: (reward) => formatDay(reward.created_at, language) },
          ]}
        />
      )}
    </Section>
  );
}

function StatementsSection({ settings, language }: SectionProps) {
  const { t } = useTranslation();
  return (
    <Section title={t('wallet.payouts.statements.title')} description={t('wallet.payouts.statements.description')}>
      {settings.statements.length === 0 ? (
        <Text size="sm">{t('wallet.payouts.statements.empty')}</Text>
      ) : (
        <Stack gap="sm" data-testid="payout-statements">
          {settings.statements.map((statement) => (
            <div key={statement.id} data-testid={`payout-statement-${statement.currency}`}>
              <Group justify="space-between" gap="xs">
                <Text fw={600}>{t('wallet.payouts.statements.line', { month: formatMonth(statement.period, language) })}</Text>
                <Text fw={600}>{money(statement.amount_minor, statement.currency, language)}</Text>
              </Group>
              <Text size="sm" c="dimmed">
                {t('wallet.payouts.statements.rewards', { count: statement.rewards.length, programs: [...new Set(statement.rewards.map((reward) => reward.program_alias))].sort().join(', ') })}
              </Text>
            </div>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function ProfileSection({ settings }: { settings: PayoutSettings }) {
  const { t } = useTranslation();
  const save = useSetProfilePublic();
  const change = async (value: boolean) => {
    try {
      await save.mutateAsync(value);
      notify('success', t('wallet.payouts.profile.saved'));
    } catch (error) {
      notifyFailure(error, t('wallet.payouts.profile.failed'));
    }
  };
  return (
    <Section title={t('wallet.payouts.profile.title')} description={t('wallet.payouts.profile.description')}>
      <Switch
        label={t('wallet.payouts.profile.label')}
        checked={settings.profile_public}
        disabled={!settings.username || save.isPending}
        onChange={(event) => void change(event.currentTarget.checked)}
        data-testid="payout-profile-switch"
      />
      {!settings.username && <Text size="sm">{t('wallet.payouts.profile.noUsername')}</Text>}
      {settings.username && settings.profile_public && (
        <Anchor component={Link} to={paths.researcher.replace(':username', encodeURIComponent(settings.username))} size="sm" data-testid="payout-profile-link">
          {t('wallet.payouts.profile.link')}
        </Anchor>
      )}
    </Section>
  );
}
