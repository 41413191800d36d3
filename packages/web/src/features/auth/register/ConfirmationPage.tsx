import '@mantine/core/styles/Button.css';
import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@portal/contracts';
import { ResendActivation } from '../../../components/ResendActivation';
import { WaitingView } from '../../../components/WaitingView';
import { rememberIdentifier } from '../../../lib/flow-storage';
import { oncePerToken } from '../../../lib/once-per-token';
import { useLinkAnswer } from '../../../lib/use-link-answer';
import { LinkRefused } from '../LinkRefused';
import { activate } from './api';

/** Activates once per token; the activated email is remembered for the sign-in that follows. */
const activateOnce = oncePerToken(async (token: string) => {
  const activated = await activate(token);
  if (activated.email) rememberIdentifier(activated.email);
  return activated;
});

/** /confirmation/:token?: account activation from the mailed link. */
export function ConfirmationPage() {
  const { t } = useTranslation();
  const answer = useLinkAnswer(useParams().token, activateOnce);

  if (answer.state === 'pending') {
    return <WaitingView text={t('auth.register.confirmation.activating')} />;
  }

  if (answer.state === 'answered') {
    const activated = answer.value;
    return (
      <Stack gap="md" maw={480} mx="auto" py="xl" ta="center" align="center">
        <Title order={1} fz="h2">
          {t('auth.register.confirmation.successTitle')}
        </Title>
        {activated.needs_password ? (
          // Activated with no password or passkey (a contested sign-up): recovery sets one.
          <>
            <Text c="dimmed">{t('auth.register.confirmation.choosePasswordBody', { email: activated.email })}</Text>
            <Button component={Link} to={paths.forgot} state={{ identifier: activated.email }}>
              {t('auth.register.confirmation.choosePassword')}
            </Button>
          </>
        ) : (
          <>
            <Text c="dimmed">{t('auth.register.confirmation.successBody', { email: activated.email })}</Text>
            <Button component={Link} to={paths.login} state={{ identifier: activated.email }}>
              {t('auth.register.confirmation.signIn')}
            </Button>
          </>
        )}
      </Stack>
    );
  }

  return (
    <LinkRefused title={t('auth.register.confirmation.failedTitle')} reason={t('errors.auth.activation_link_invalid')} maw={480} mx="auto" py="xl">
      <Text size="sm">{t('auth.register.confirmation.newLinkHint')}</Text>
      <ResendActivation />
    </LinkRefused>
  );
}
