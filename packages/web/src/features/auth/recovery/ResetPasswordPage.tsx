import '@mantine/core/styles/Button.css';
import { useState } from 'react';
import { Button } from '@mantine/core';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { WaitingView } from '../../../components/WaitingView';
import { paths, RESET_LINK_TTL_SECONDS } from '@portal/contracts';
import { PageHeader } from '../../../components/PageHeader';
import { notify } from '../../../lib/api';
import { useLinkAnswer } from '../../../lib/use-link-answer';
import { LinkRefused } from '../LinkRefused';
import { checkResetToken } from './api';
import { NewPasswordForm } from './NewPasswordForm';

/** /reset-pwd/:token?: the link from the reset email, checked before the form shows. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const link = useLinkAnswer(token, checkResetToken);
  /** The form's submit found the link expired or used after all. */
  const [refused, setRefused] = useState(false);

  if (link.state === 'pending') {
    return <WaitingView text={t('auth.recovery.resetPassword.checking')} />;
  }

  if (link.state === 'failed' || refused || !token) {
    return (
      <LinkRefused title={t('auth.recovery.resetPassword.invalidTitle')} reason={t('errors.auth.reset_link_invalid')}>
        <div>
          <Button component={Link} to={`${paths.forgot}${search}`}>
            {t('auth.recovery.resetPassword.requestNew')}
          </Button>
        </div>
      </LinkRefused>
    );
  }

  return (
    <>
      <PageHeader title={t('auth.recovery.resetPassword.title')} description={t('auth.recovery.resetPassword.description', { minutes: RESET_LINK_TTL_SECONDS / 60 })} />
      <NewPasswordForm
        token={token}
        onInvalid={() => setRefused(true)}
        onDone={() => {
          notify('success', t('auth.recovery.forgot.done'));
          void navigate(`${paths.login}${search}`);
        }}
      />
    </>
  );
}
