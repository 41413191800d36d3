import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';

/** Not built yet (shows NotAvailableYet). /confirmation/app/:token?: AppSumo license activation links. */
export function AppConfirmationPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('register.confirmationApp.title')} description={t('register.confirmationApp.description')} />
      <NotAvailableYet />
    </>
  );
}
