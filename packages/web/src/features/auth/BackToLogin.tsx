import { Anchor } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';

/** Back to the first sign-in step, keeping the entry query (service, OAuth values). */
export function BackToLogin() {
  const { t } = useTranslation();
  const { search } = useLocation();
  return (
    <Anchor component={Link} to={`${paths.login}${search}`} size="sm">
      {t('auth.backToLogin')}
    </Anchor>
  );
}
