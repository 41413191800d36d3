import './styles';
import { Anchor, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type WalletCurrency } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useBalances } from './api';
import { PaymentMethodsSummary, SubscriptionsSummary } from './BillingSummary';
import { formatBalance } from './CurrencyWallet';
import { useLanguage } from '../../lib/use-language';
import { LoadingIndicator } from '../../components/LoadingIndicator';

const pages: Record<WalletCurrency, string> = { USD: paths.walletUsd, VND: paths.walletVnd, WHC: paths.walletWhc };

/** /wallet: the balances with links to each currency's page, payment methods, subscriptions and payouts. */
export function WalletPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const balances = useBalances();
  return (
    <Stack gap="lg">
      <PageHeader title={t('wallet.title')} description={t('wallet.description')} />
      <Section title={t('wallet.balances.title')} description={t('wallet.balances.description')}>
        {!balances.data ? (
          <LoadingIndicator />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {balances.data.balances.map(({ currency, minor }) => (
              <Card key={currency} withBorder padding="md" data-testid={`balance-${currency}`}>
                <Text size="sm" c="dimmed">
                  {currency === 'USD' ? t('wallet.usd.title') : t(currency === 'VND' ? 'wallet.vnd.title' : 'wallet.whc.title')}
                </Text>
                <Text size="xl" fw={600}>
                  {formatBalance(minor, currency, language)}
                </Text>
                <Anchor component={Link} to={pages[currency]} size="sm" aria-label={`${t('wallet.open')}: ${currency}`}>
                  {t('wallet.open')}
                </Anchor>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </Section>
      <PaymentMethodsSummary />
      <SubscriptionsSummary />
      <Section title={t('wallet.payout.title')} description={t('wallet.payout.description')}>
        <Anchor component={Link} to={paths.walletPayout} size="sm" data-testid="wallet-payout-link">
          {t('wallet.payouts.open')}
        </Anchor>
      </Section>
    </Stack>
  );
}
