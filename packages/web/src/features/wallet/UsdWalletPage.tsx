import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { Section } from '../../components/Section';
import { CurrencyWallet } from './CurrencyWallet';

/** /wallet/usd: the USD balance, where USD comes from (rewards, transfers; no deposit), transfers and transactions. */
export function UsdWalletPage() {
  const { t } = useTranslation();
  return (
    <CurrencyWallet currency="USD" title={t('wallet.usd.title')} description={t('wallet.usd.description')}>
      <Section title={t('wallet.usd.sourcesTitle')} description={t('wallet.usd.sources')}>
        <Anchor component={Link} to={paths.walletPayout} size="sm" fw={500} data-testid="wallet-usd-payout-link">
          {t('wallet.payouts.open')}
        </Anchor>
      </Section>
    </CurrencyWallet>
  );
}
