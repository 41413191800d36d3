import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type ActivationResponse } from '@portal/contracts';
import { ResendActivation } from '../../../components/ResendActivation';
import { WaitingView } from '../../../components/WaitingView';
import { rememberIdentifier } from '../../../lib/flow-storage';
import { oncePerToken } from '../../../lib/once-per-token';
import { activate } from './api';

type Outcome = { state: 'pending' } | ({ state: 'activated' } & ActivationResponse) | { state: 'failed' };

const activateOnce = oncePerToken(activate);

/** /confirmation/:token?: account activation from the mailed link. */
export function ConfirmationPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const [outcome, setOutcome] = useState<Outcome>(token ? { state: 'pending' } : { state: 'failed' });

  useEffect(() => {
    if (!token) return;
    let current = true;
    activateOnce(token).then(
      (activated) => {
        if (!current) return;
        if (activated.email) rememberIdentifier(activated.email);
        setOutcome({ state: 'activated', ...activated });
      },
      () => current && setOutcome({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (outcome.state === 'pending') {
    return <WaitingView text={t('register.confirmation.activating')} />;
  }

  if (outcome.state === 'activated') {
    return (
      <Stack gap="md" maw={480} mx="auto" py="xl" ta="center" align="center">
        <Title order={1} fz="h2">
          {t('register.confirmation.successTitle')}
        </Title>
        {outcome.needs_password ? (
          // Activated with no password or passkey (a contested sign-up): recovery sets one.
          <>
            <Text c="dimmed">{t('register.confirmation.choosePasswordBody', { email: outcome.email })}</Text>
            <Button component={Link} to={paths.forgot} state={{ identifier: outcome.email }}>
              {t('register.confirmation.choosePassword')}
            </Button>
          </>
        ) : (
          <>
            <Text c="dimmed">{t('register.confirmation.successBody', { email: outcome.email })}</Text>
            <Button component={Link} to={paths.login} state={{ identifier: outcome.email }}>
              {t('register.confirmation.signIn')}
            </Button>
          </>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={480} mx="auto" py="xl">
      <Title order={1} fz="h2">
        {t('register.confirmation.failedTitle')}
      </Title>
      <Text c="dimmed" role="alert">
        {t('errors.auth.activation_link_invalid')}
      </Text>
      <Text size="sm">{t('register.confirmation.newLinkHint')}</Text>
      <ResendActivation />
    </Stack>
  );
}
