import { useTranslation } from 'react-i18next';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';

/** Not built yet (shows NotAvailableYet). /register/locker-enterprise-trial/success: after a business trial has started. */
export function LockerEnterpriseTrialSuccessPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('register.lockerEnterpriseTrialSuccess.title')} description={t('register.lockerEnterpriseTrialSuccess.description')} />
      <NotAvailableYet />
    </>
  );
}
