import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { useEffect, useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney, invitationConfirmationPath, MODERATOR_TOKEN_PREFIX, moderatorConfirmationPath, PRICES_USD_MONTHLY, TRIAL_DAYS, type InvitationStatus, type Language } from '@portal/contracts';
import { invitationResultTexts, type InvitationResultTexts } from '../../../components/InvitationResult';
import { PageHeader } from '../../../components/PageHeader';
import { Spinner } from '../../../components/Spinner';
import { ApiError, errorText } from '../../../lib/api';
import { claimInvitation, claimModeratorInvitation, previewInvitation, previewModeratorInvitation } from './api';
import { RegisterForm } from './RegisterForm';

/** Plans with a free trial (the spec's constants), by the `:id` of /register/:id. */
const trialPlans = ['premium', 'family', 'business'] as const;
type TrialPlan = (typeof trialPlans)[number];

function isTrialPlan(value: string | undefined): value is TrialPlan {
  return (trialPlans as readonly string[]).includes(value ?? '');
}

/** An invitation's token (a plan name is a short word). */
const isInvitationToken = (value: string | undefined): boolean => !!value && /^[\w-]{20,200}$/.test(value);

/** What the sign-up page needs of one kind of invitation (an organization's, a website moderator's). */
interface InvitationKind {
  /** The link's status, the invited email, whether it has an account, and the page's heading and text. */
  preview(token: string): Promise<{ status: InvitationStatus; email: string; has_account: boolean; title: string; description: string; haveAccount: string }>;
  claim(token: string): Promise<unknown>;
  confirmationPath(token: string): string;
  invalid: string;
  refusal: Record<Exclude<InvitationStatus, 'pending'>, string>;
}

const refusals = ({ invalid, refusal }: InvitationResultTexts) => ({ invalid, refusal });

function useInvitationKind(token: string): InvitationKind {
  const { t } = useTranslation();
  if (token.startsWith(MODERATOR_TOKEN_PREFIX)) {
    return {
      async preview(value) {
        const answer = await previewModeratorInvitation(value);
        const names = { website: answer.website_name, email: answer.email, product: answer.product };
        return { ...answer, title: t('auth.register.withId.moderator.title', names), description: t('auth.register.withId.moderator.description', names), haveAccount: t('auth.register.withId.moderator.haveAccount', names) };
      },
      claim: claimModeratorInvitation,
      confirmationPath: moderatorConfirmationPath,
      ...refusals(invitationResultTexts(t, 'moderatorInvitation', 'moderators')),
    };
  }
  return {
    async preview(value) {
      const answer = await previewInvitation(value);
      const names = { organization: answer.organization_name, email: answer.email };
      return { ...answer, title: t('auth.register.withId.invitation.title', names), description: t('auth.register.withId.invitation.description', names), haveAccount: t('auth.register.withId.invitation.haveAccount', names) };
    },
    claim: claimInvitation,
    confirmationPath: invitationConfirmationPath,
    ...refusals(invitationResultTexts(t, 'organizationInvitation', 'organizations')),
  };
}

type Preview = Awaited<ReturnType<InvitationKind['preview']>>;

/**
 * Sign-up from an invitation (an organization's or a website moderator's): what it is for, the
 * invited email fixed, and the account joins (is accepted) once activated. An email with an
 * account goes to the result screen.
 */
function InvitationSignUp({ token }: { token: string }) {
  const { t } = useTranslation();
  const kind = useInvitationKind(token);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    kind.preview(token).then(
      (answer) => current && setPreview(answer),
      (error: unknown) => current && setFailure(error instanceof ApiError ? errorText(error) : kind.invalid),
    );
    return () => {
      current = false;
    };
    // Read once per link; the texts are the language's at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  const header = <PageHeader title={t('auth.register.withId.title')} description={t('auth.register.withId.description')} />;
  if (failure || (preview && preview.status !== 'pending')) {
    return (
      <Stack gap="lg">
        {header}
        <Alert color="red" role="alert" data-testid="invitation-failed">
          {failure ?? kind.refusal[preview!.status as Exclude<InvitationStatus, 'pending'>]}
        </Alert>
      </Stack>
    );
  }
  if (!preview) {
    return (
      <Stack align="center" role="status" py="xl">
        <Spinner />
        <Text>{t('auth.register.withId.invitation.loading')}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <PageHeader title={preview.title} description={preview.description} />
      {preview.has_account ? (
        <Stack gap="sm">
          <Text>{preview.haveAccount}</Text>
          <Button component={Link} to={kind.confirmationPath(token)} data-testid="invitation-with-account">
            {t('auth.register.withId.invitation.signIn')}
          </Button>
        </Stack>
      ) : (
        <RegisterForm fixedEmail={preview.email} beforeSignUp={() => kind.claim(token)} />
      )}
    </Stack>
  );
}

/** /register/:id: sign-up from a plan link (14-day trial copy), an organization invitation, or a website moderator invitation. */
export function RegisterWithIdPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const language = (i18n.resolvedLanguage ?? 'en') as Language;

  if (id && isInvitationToken(id)) return <InvitationSignUp key={id} token={id} />;

  if (!isTrialPlan(id)) {
    return (
      <Stack gap="lg">
        <PageHeader title={t('auth.register.withId.title')} description={t('auth.register.withId.description')} />
        <RegisterForm />
      </Stack>
    );
  }

  const plan = t(`auth.register.plans.${id}`);
  const price = id === 'business' ? undefined : formatMoney(PRICES_USD_MONTHLY[id], 'USD', language);
  return (
    <Stack gap="lg">
      <div>
        <PageHeader
          title={t('auth.register.plans.trialTitle', { days: TRIAL_DAYS, plan })}
          description={t('auth.register.plans.trialDescription', { days: TRIAL_DAYS, plan })}
        />
        {price && (
          <Text size="sm" fw={500} data-testid="plan-price">
            {t('auth.register.plans.priceFrom', { plan, price })}
          </Text>
        )}
      </div>
      <RegisterForm />
    </Stack>
  );
}
