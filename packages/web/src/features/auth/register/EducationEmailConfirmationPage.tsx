import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { accountEndpoints, paths } from '@portal/contracts';
import { call } from '../../../lib/api';
import { WaitingView } from '../../../components/WaitingView';
import { loadAccountCatalogue } from '../../../lib/i18n';
import { oncePerToken } from '../../../lib/once-per-token';

type Outcome = { state: 'pending' } | { state: 'confirmed'; email: string } | { state: 'failed' };

/** POST /sso/users/education-email/confirm {token} → {email}; a used or expired link answers 400 account.email_link_invalid. */
const confirmEducationEmail = (token: string) => call(accountEndpoints.confirmEducationEmail, { body: { token } }, { handle: [400, 404] });

const confirmOnce = oncePerToken(confirmEducationEmail);

/**
 * /confirmation/education-email/:token?: the link mailed to an education address. Its
 * result text is in the account catalogue (the page shares it with /email), fetched
 * alongside the request.
 */
export function EducationEmailConfirmationPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const [outcome, setOutcome] = useState<Outcome>(token ? { state: 'pending' } : { state: 'failed' });

  useEffect(() => {
    let current = true;
    const text = loadAccountCatalogue().catch(() => undefined);
    const result = token ? confirmOnce(token) : Promise.reject(new Error('no token'));
    Promise.allSettled([result, text]).then(([answer]) => {
      if (!current) return;
      setOutcome(answer.status === 'fulfilled' ? { state: 'confirmed', email: answer.value.email } : { state: 'failed' });
    });
    return () => {
      current = false;
    };
  }, [token]);

  if (outcome.state === 'pending') {
    return <WaitingView text={t('app.loading')} indicator={<Loader />} />;
  }

  const confirmed = outcome.state === 'confirmed';
  return (
    <Stack gap="md" maw={480} mx="auto" py="xl" ta="center" align="center" data-testid="education-email-result">
      <Title order={1} fz="h2">
        {confirmed ? t('account.email.education.confirmedTitle') : t('account.email.education.failedTitle')}
      </Title>
      <Text c="dimmed" role={confirmed ? 'status' : 'alert'}>
        {confirmed ? t('account.email.education.confirmed', { email: outcome.email }) : t('errors.account.email_link_invalid' as never)}
      </Text>
      <Button component={Link} to={paths.email}>
        {t('account.email.education.backHome')}
      </Button>
    </Stack>
  );
}
