import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPathFor, paths, type InvitationPreview } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { ApiError, errorText } from '../../lib/api';
import { currentUser } from '../../lib/session';
import { acceptInvitation, previewInvitation } from './api';

type Outcome =
  | { state: 'loading' }
  | { state: 'signedOut'; preview: InvitationPreview }
  | { state: 'ready'; preview: InvitationPreview }
  | { state: 'joined'; organization: string }
  | { state: 'failed'; message: string };

const refusal = {
  expired: 'errors.organizations.invitation_expired',
  revoked: 'errors.organizations.invitation_revoked',
  accepted: 'errors.organizations.invitation_used',
} as const satisfies Record<Exclude<InvitationPreview['status'], 'pending'>, string>;

/**
 * /confirmation/invitation/:token?: the result screen of an organization invitation for a
 * person with an account (the spec's "moderator invitation activation" screen). Sign in first,
 * then accept: joined, or why not (expired, withdrawn, used, sent to another email).
 */
export function InvitationPage() {
  const { t } = useTranslation();
  const { token } = useParams();
  const location = useLocation();
  const [outcome, setOutcome] = useState<Outcome>(token ? { state: 'loading' } : { state: 'failed', message: t('errors.organizations.invitation_invalid') });
  const [accepting, setAccepting] = useState(false);

  useEffect(() => {
    if (!token) return;
    let current = true;
    const fail = (error: unknown) => current && setOutcome({ state: 'failed', message: error instanceof ApiError ? errorText(error) : t('errors.organizations.invitation_invalid') });
    Promise.all([previewInvitation(token), currentUser().catch(() => null)])
      .then(([preview, user]) => {
        if (!current) return;
        if (preview.status !== 'pending') return setOutcome({ state: 'failed', message: t(refusal[preview.status]) });
        if (!user) return setOutcome({ state: 'signedOut', preview });
        if (user.email && user.email.toLowerCase() !== preview.email) return setOutcome({ state: 'failed', message: t('errors.organizations.invitation_other_person') });
        setOutcome({ state: 'ready', preview });
      })
      .catch(fail);
    return () => {
      current = false;
    };
  }, [token, t]);

  const accept = async () => {
    if (!token) return;
    setAccepting(true);
    try {
      const joined = await acceptInvitation(token);
      setOutcome({ state: 'joined', organization: joined.organization_name });
    } catch (error) {
      setOutcome({ state: 'failed', message: error instanceof ApiError ? errorText(error) : t('errors.organizations.invitation_invalid') });
    } finally {
      setAccepting(false);
    }
  };

  const body = () => {
    switch (outcome.state) {
      case 'loading':
        return (
          <Stack align="center" role="status">
            <Spinner />
            <Text>{t('register.organizationInvitation.loading')}</Text>
          </Stack>
        );
      case 'signedOut':
      case 'ready':
        return (
          <Stack gap="sm">
            <Text data-testid="invitation-summary">
              {t('register.organizationInvitation.summary', { organization: outcome.preview.organization_name, email: outcome.preview.email, role: t(`register.organizationInvitation.roles.${outcome.preview.role}`) })}
            </Text>
            {outcome.state === 'signedOut' ? (
              <Button component={Link} to={loginPathFor(location.pathname)} state={{ identifier: outcome.preview.email }} data-testid="invitation-sign-in">
                {t('register.organizationInvitation.signIn')}
              </Button>
            ) : (
              <Button onClick={() => void accept()} loading={accepting} data-testid="invitation-accept">
                {t('register.organizationInvitation.accept')}
              </Button>
            )}
          </Stack>
        );
      case 'joined':
        return (
          <Stack gap="sm">
            <Alert color="green" data-testid="invitation-joined">
              {t('register.organizationInvitation.joined', { organization: outcome.organization })}
            </Alert>
            <Button component={Link} to={paths.organization}>
              {t('register.organizationInvitation.open')}
            </Button>
          </Stack>
        );
      default:
        return (
          <Alert color="red" role="alert" data-testid="invitation-failed">
            {outcome.message}
          </Alert>
        );
    }
  };

  return (
    <Stack gap="md">
      <PageHeader title={t('register.organizationInvitation.title')} description={t('register.organizationInvitation.description')} />
      {body()}
    </Stack>
  );
}
