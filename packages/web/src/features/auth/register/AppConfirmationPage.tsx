import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPathFor, paths } from '@portal/contracts';
import { PageHeader } from '../../../components/PageHeader';
import { DoneWithLink } from '../../../components/DoneWithLink';
import { Spinner } from '../../../components/Spinner';
import { ApiError, errorText } from '../../../lib/api';
import { oncePerToken } from '../../../lib/once-per-token';
import { currentUser } from '../../../lib/session';
import { redeemLicense } from './api';

type Outcome = { state: 'pending' } | { state: 'signedOut' } | { state: 'activated'; plan: string } | { state: 'failed'; error: ApiError | null };

const redeemOnce = oncePerToken(redeemLicense);

/** /confirmation/app/:token?: AppSumo license activation: grants the license's lifetime plan once. */
export function AppConfirmationPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const location = useLocation();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'pending' });

  useEffect(() => {
    if (!token) return;
    let current = true;
    // The license goes to the signed-in account: who that is, is asked first.
    currentUser()
      .catch(() => null)
      .then(async (user) => {
        if (!user) return current && setOutcome({ state: 'signedOut' });
        const redeemed = await redeemOnce(token);
        if (current) setOutcome({ state: 'activated', plan: redeemed.plan_name });
      })
      .catch((error: unknown) => current && setOutcome({ state: 'failed', error: error instanceof ApiError ? error : null }));
    return () => {
      current = false;
    };
  }, [token]);

  const body = () => {
    if (!token) return <Alert color="red">{t('auth.register.confirmationApp.missing')}</Alert>;
    if (outcome.state === 'signedOut') {
      return (
        <Button component={Link} to={loginPathFor(location.pathname)} data-testid="license-sign-in">
          {t('auth.register.confirmationApp.signIn')}
        </Button>
      );
    }
    if (outcome.state === 'pending') {
      return (
        <Stack align="center" role="status">
          <Spinner />
          <Text>{t('auth.register.confirmationApp.activating')}</Text>
        </Stack>
      );
    }
    if (outcome.state === 'activated') {
      return <DoneWithLink message={t('auth.register.confirmationApp.activated', { plan: outcome.plan })} testId="license-activated" to={paths.billing} label={t('auth.register.confirmationApp.home')} />;
    }
    return (
      <Alert color="red" role="alert" data-testid="license-failed">
        {outcome.error ? errorText(outcome.error) : t('errors.billing.license_invalid' as never)}
      </Alert>
    );
  };

  return (
    <Stack gap="md">
      <PageHeader title={t('auth.register.confirmationApp.title')} description={t('auth.register.confirmationApp.description')} />
      {body()}
    </Stack>
  );
}
