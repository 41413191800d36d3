import { useTranslation } from 'react-i18next';
import { TRIAL_DAYS } from '@portal/contracts';
import { NotAvailableYet } from '../../components/NotAvailableYet';
import { PageHeader } from '../../components/PageHeader';

/** Not built yet (shows NotAvailableYet). /register/locker-enterprise-trial: sign-up for the password manager's business trial. */
export function LockerEnterpriseTrialPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t('register.lockerEnterpriseTrial.title')}
        description={t('register.lockerEnterpriseTrial.description', { days: TRIAL_DAYS })}
      />
      <NotAvailableYet />
    </>
  );
}
