import { useTranslation } from 'react-i18next';
import { CurrencyWallet } from './CurrencyWallet';

/** /wallet/vnd: the VND balance, transfers and transactions. */
export function VndWalletPage() {
  const { t } = useTranslation();
  return <CurrencyWallet currency="VND" title={t('wallet.vnd.title')} description={t('wallet.vnd.description')} />;
}
