import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, TRIAL_DAYS } from '@portal/contracts';
import { BusinessTrialForm } from '../../../components/BusinessTrialForm';
import { PageHeader } from '../../../components/PageHeader';

/**
 * /register/locker-enterprise-trial (signed in: the route sends others to sign in and back): the
 * signed-in person starts their company's 14-day business trial as its owner, with their own email.
 * The same form is on /organization for an account in no organization.
 */
export function LockerEnterpriseTrialPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <PageHeader title={t('auth.register.lockerEnterpriseTrial.title')} description={t('auth.register.lockerEnterpriseTrial.description', { days: TRIAL_DAYS })} />
      <BusinessTrialForm onStarted={(started) => navigate(paths.registerLockerEnterpriseTrialSuccess, { state: { email: started.email } })} />
    </Stack>
  );
}
