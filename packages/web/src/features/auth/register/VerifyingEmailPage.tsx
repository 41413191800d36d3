import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { PageHeader } from '../../../components/PageHeader';
import { RESEND_COOLDOWN_SECONDS, ResendActivation } from '../../../components/ResendActivation';
import { recalledSignupEmail, stateValue } from '../../../lib/flow-storage';

/** /register/verifying-email: after sign-up, until the activation link is opened. */
export function VerifyingEmailPage() {
  const { t } = useTranslation();
  const { state, search } = useLocation();
  const email = stateValue(state, 'email') ?? recalledSignupEmail();

  return (
    <Stack gap="md">
      <PageHeader
        title={t('auth.register.verifyingEmail.title')}
        description={email ? t('auth.register.verifyingEmail.sentTo', { email }) : t('auth.register.verifyingEmail.description')}
      />
      <Text size="sm" c="dimmed">
        {t('auth.register.verifyingEmail.checkSpam')}
      </Text>
      <ResendActivation email={email || undefined} initialCooldown={email ? RESEND_COOLDOWN_SECONDS : 0} />
      <Anchor component={Link} to={`${paths.login}${search}`} state={email ? { identifier: email } : undefined} size="sm">
        {t('auth.register.verifyingEmail.signIn')}
      </Anchor>
    </Stack>
  );
}
