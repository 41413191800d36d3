import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { useCurrentService } from '../../lib/service';
import { SignupOffer } from './SignupOffer';

/** /register: sign-up, with the copy of the product the visitor came from. */
export function RegisterPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const service = useCurrentService();
  return (
    <>
      <PageHeader title={t('register.index.title')} />
      <Stack gap="sm">
        <SignupOffer service={service} />
        <Text size="sm">
          {t('register.index.haveAccount')}{' '}
          <Anchor component={Link} to={`${paths.login}${search}`}>
            {t('register.index.signIn')}
          </Anchor>
        </Text>
      </Stack>
    </>
  );
}
