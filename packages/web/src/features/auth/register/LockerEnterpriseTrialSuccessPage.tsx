import '@mantine/core/styles/Button.css';
import { Button, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, TRIAL_DAYS } from '@portal/contracts';
import { PageHeader } from '../../../components/PageHeader';
import { stateValue } from '../../../lib/flow-storage';

/** /register/locker-enterprise-trial/success: after the signed-in person started their business trial (they own its organization). */
export function LockerEnterpriseTrialSuccessPage() {
  const { t } = useTranslation();
  const email = stateValue(useLocation().state, 'email');
  return (
    <Stack gap="md">
      <PageHeader title={t('auth.register.lockerEnterpriseTrialSuccess.title')} description={t('auth.register.lockerEnterpriseTrialSuccess.description')} />
      {email && <Text data-testid="business-trial-started">{t('auth.register.lockerEnterpriseTrialSuccess.started', { email, days: TRIAL_DAYS })}</Text>}
      <Button component={Link} to={paths.organization}>
        {t('auth.register.lockerEnterpriseTrialSuccess.setUp')}
      </Button>
    </Stack>
  );
}
