import { useTranslation } from 'react-i18next';
import { Section } from '../../components/Section';
import { CurrencyWallet } from './CurrencyWallet';
import { WithdrawalSection } from './WithdrawalSection';

/** /wallet/whc: the WHC balance, withdrawals to BEP20 addresses, transfers and transactions. */
export function WhcWalletPage() {
  const { t } = useTranslation();
  return (
    <CurrencyWallet currency="WHC" title={t('wallet.whc.title')} description={t('wallet.whc.description')}>
      <Section title={t('wallet.withdrawal.title')} description={t('wallet.withdrawal.description')}>
        <WithdrawalSection />
      </Section>
    </CurrencyWallet>
  );
}
