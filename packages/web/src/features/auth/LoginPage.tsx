import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentService } from '../../lib/service';

/** /login: the first sign-in step. The identifier form arrives with the sign-in API. */
export function LoginPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const service = useCurrentService();
  return (
    <>
      <PageHeader title={t('auth.login.title')} description={t('auth.login.description', { service: service.entry.name })} />
      <Stack gap="xs">
        <Text size="sm">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to={`${paths.register}${search}`}>
            {t('auth.login.createAccount')}
          </Anchor>
        </Text>
        <Anchor component={Link} to={`${paths.forgot}${search}`} size="sm">
          {t('auth.login.forgotPassword')}
        </Anchor>
      </Stack>
    </>
  );
}
