import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney, invitationConfirmationPath, PRICES_USD_MONTHLY, TRIAL_DAYS, type InvitationPreview, type Language } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { Spinner } from '../../components/Spinner';
import { ApiError, errorText } from '../../lib/api';
import { claimInvitation, previewInvitation } from './api';
import { RegisterForm } from './RegisterForm';

/** Plans with a free trial (spec section 9), by the `:id` of /register/:id. */
const trialPlans = ['premium', 'family', 'business'] as const;
type TrialPlan = (typeof trialPlans)[number];

function isTrialPlan(value: string | undefined): value is TrialPlan {
  return (trialPlans as readonly string[]).includes(value ?? '');
}

/** An organization invitation's token (a plan name is a short word). */
const isInvitationToken = (value: string | undefined): boolean => !!value && /^[\w-]{20,200}$/.test(value);

const refusal = {
  expired: 'errors.organizations.invitation_expired',
  revoked: 'errors.organizations.invitation_revoked',
  accepted: 'errors.organizations.invitation_used',
} as const satisfies Record<Exclude<InvitationPreview['status'], 'pending'>, string>;

/**
 * Sign-up from an organization invitation: the organization's name, the invited email fixed,
 * and the account joins once activated. An email with an account goes to the result screen.
 */
function InvitationSignUp({ token }: { token: string }) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    previewInvitation(token).then(
      (answer) => current && setPreview(answer),
      (error: unknown) => current && setFailure(error instanceof ApiError ? errorText(error) : t('errors.organizations.invitation_invalid')),
    );
    return () => {
      current = false;
    };
  }, [token, t]);

  const header = <PageHeader title={t('register.withId.title')} description={t('register.withId.description')} />;
  if (failure || (preview && preview.status !== 'pending')) {
    return (
      <Stack gap="lg">
        {header}
        <Alert color="red" role="alert" data-testid="invitation-failed">
          {failure ?? t(refusal[preview!.status as keyof typeof refusal])}
        </Alert>
      </Stack>
    );
  }
  if (!preview) {
    return (
      <Stack align="center" role="status" py="xl">
        <Spinner />
        <Text>{t('register.withId.invitation.loading')}</Text>
      </Stack>
    );
  }
  const names = { organization: preview.organization_name, email: preview.email };
  return (
    <Stack gap="lg">
      <PageHeader title={t('register.withId.invitation.title', names)} description={t('register.withId.invitation.description', names)} />
      {preview.has_account ? (
        <Stack gap="sm">
          <Text>{t('register.withId.invitation.haveAccount', names)}</Text>
          <Button component={Link} to={invitationConfirmationPath(token)} data-testid="invitation-with-account">
            {t('register.withId.invitation.signIn')}
          </Button>
        </Stack>
      ) : (
        <RegisterForm fixedEmail={preview.email} beforeSignUp={() => claimInvitation(token)} />
      )}
    </Stack>
  );
}

/** /register/:id: sign-up from a plan link (14-day trial copy), an organization invitation, or another invitation. */
export function RegisterWithIdPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const language = (i18n.resolvedLanguage ?? 'en') as Language;

  if (id && isInvitationToken(id)) return <InvitationSignUp key={id} token={id} />;

  if (!isTrialPlan(id)) {
    return (
      <Stack gap="lg">
        <PageHeader title={t('register.withId.title')} description={t('register.withId.description')} />
        <RegisterForm />
      </Stack>
    );
  }

  const plan = t(`register.plans.${id}`);
  const price = id === 'business' ? undefined : formatMoney(PRICES_USD_MONTHLY[id], 'USD', language);
  return (
    <Stack gap="lg">
      <div>
        <PageHeader
          title={t('register.plans.trialTitle', { days: TRIAL_DAYS, plan })}
          description={t('register.plans.trialDescription', { days: TRIAL_DAYS, plan })}
        />
        {price && (
          <Text size="sm" fw={500} data-testid="plan-price">
            {t('register.plans.priceFrom', { plan, price })}
          </Text>
        )}
      </div>
      <RegisterForm />
    </Stack>
  );
}
