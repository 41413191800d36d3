import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';
import { BackToLogin } from './BackToLogin';

/** Not built yet (shows NotAvailableYet). /callback: where social providers return after sign-in. */
export function CallbackPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('auth.callback.title')} description={t('auth.callback.description')} />
      <NotAvailableYet />
      <BackToLogin />
    </>
  );
}
