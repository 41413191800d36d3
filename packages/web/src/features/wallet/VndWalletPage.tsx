import { useTranslation } from 'react-i18next';
import { Section } from '../../components/Section';
import { CurrencyWallet } from './CurrencyWallet';
import { DepositSection } from './DepositSection';

/** /wallet/vnd: the VND balance, deposits by bank transfer, transfers and transactions. */
export function VndWalletPage() {
  const { t } = useTranslation();
  return (
    <CurrencyWallet currency="VND" title={t('wallet.vnd.title')} description={t('wallet.vnd.description')}>
      <Section title={t('wallet.deposit.title')} description={t('wallet.deposit.description')}>
        <DepositSection />
      </Section>
    </CurrencyWallet>
  );
}
