import { useTranslation } from 'react-i18next';
import { Anchor } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';

/** /forgot: password recovery through the recovery email. */
export function ForgotPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  return (
    <>
      <PageHeader title={t('recovery.forgot.title')} description={t('recovery.forgot.description')} />
      <Anchor component={Link} to={`${paths.login}${search}`} size="sm">
        {t('auth.backToLogin')}
      </Anchor>
    </>
  );
}
