import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /wallet: the wallets, payment methods, subscriptions and payouts. */
export function WalletPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('wallet.title')} description={t('wallet.description')} />
      <Section title={t('wallet.vnd.title')} description={t('wallet.vnd.description')}>
        <Anchor component={Link} to={paths.walletVnd} size="sm" aria-label={`${t('wallet.open')}: ${t('wallet.vnd.title')}`}>
          {t('wallet.open')}
        </Anchor>
      </Section>
      <Section title={t('wallet.whc.title')} description={t('wallet.whc.description')}>
        <Anchor component={Link} to={paths.walletWhc} size="sm" aria-label={`${t('wallet.open')}: ${t('wallet.whc.title')}`}>
          {t('wallet.open')}
        </Anchor>
      </Section>
      <Section title={t('wallet.paymentMethods.title')} description={t('wallet.paymentMethods.description')} />
      <Section title={t('wallet.subscriptions.title')} description={t('wallet.subscriptions.description')} />
      <Section title={t('wallet.payout.title')} description={t('wallet.payout.description')} />
    </Stack>
  );
}
