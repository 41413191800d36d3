import { useTranslation } from 'react-i18next';
import { CurrencyWallet } from './CurrencyWallet';

/** /wallet/whc: the WHC balance, transfers and transactions. */
export function WhcWalletPage() {
  const { t } = useTranslation();
  return <CurrencyWallet currency="WHC" title={t('wallet.whc.title')} description={t('wallet.whc.description')} />;
}
