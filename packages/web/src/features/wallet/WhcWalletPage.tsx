import { useTranslation } from 'react-i18next';
import { Section } from '../../components/Section';
import { CurrencyWallet } from './CurrencyWallet';
import { usePendingWhcDeposits, WhcDepositSection } from './WhcDepositSection';
import { WithdrawalSection } from './WithdrawalSection';

/** /wallet/whc: the WHC balance, deposits to the person's BEP20 address, withdrawals to BEP20 addresses, transfers and transactions. */
export function WhcWalletPage() {
  const { t } = useTranslation();
  const pendingIncoming = usePendingWhcDeposits();
  return (
    <CurrencyWallet currency="WHC" title={t('wallet.whc.title')} description={t('wallet.whc.description')} pendingIncoming={pendingIncoming}>
      <Section title={t('wallet.whcDeposit.title')} description={t('wallet.whcDeposit.description')}>
        <WhcDepositSection />
      </Section>
      <Section title={t('wallet.withdrawal.title')} description={t('wallet.withdrawal.description')}>
        <WithdrawalSection />
      </Section>
    </CurrencyWallet>
  );
}
