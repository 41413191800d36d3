import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { WaitingView } from '../../../components/WaitingView';
import { paths, RESET_LINK_TTL_SECONDS } from '@portal/contracts';
import { PageHeader } from '../../../components/PageHeader';
import { notify } from '../../../lib/api';
import { checkResetToken } from './api';
import { NewPasswordForm } from './NewPasswordForm';

type LinkState = 'checking' | 'valid' | 'invalid';

/** /reset-pwd/:token?: the link from the reset email, checked before the form shows. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const [linkState, setLinkState] = useState<LinkState>(token ? 'checking' : 'invalid');

  useEffect(() => {
    if (!token) return;
    let current = true;
    checkResetToken(token).then(
      () => current && setLinkState('valid'),
      () => current && setLinkState('invalid'),
    );
    return () => {
      current = false;
    };
  }, [token]);

  if (linkState === 'checking') {
    return <WaitingView text={t('recovery.resetPassword.checking')} />;
  }

  if (linkState === 'invalid' || !token) {
    return (
      <Stack gap="md">
        <Title order={1} fz="h2">
          {t('recovery.resetPassword.invalidTitle')}
        </Title>
        <Text c="dimmed" role="alert">
          {t('errors.auth.reset_link_invalid')}
        </Text>
        <div>
          <Button component={Link} to={`${paths.forgot}${search}`}>
            {t('recovery.resetPassword.requestNew')}
          </Button>
        </div>
      </Stack>
    );
  }

  return (
    <>
      <PageHeader title={t('recovery.resetPassword.title')} description={t('recovery.resetPassword.description', { minutes: RESET_LINK_TTL_SECONDS / 60 })} />
      <NewPasswordForm
        token={token}
        onInvalid={() => setLinkState('invalid')}
        onDone={() => {
          notify('success', t('recovery.forgot.done'));
          void navigate(`${paths.login}${search}`);
        }}
      />
    </>
  );
}
