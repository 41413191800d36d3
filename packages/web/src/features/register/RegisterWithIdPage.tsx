import { Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatMoney, PRICES_USD_MONTHLY, TRIAL_DAYS, type Language } from '@portal/contracts';
import { PageHeader } from '../../components/PageHeader';
import { RegisterForm } from './RegisterForm';

/** Plans with a free trial (spec section 9), by the `:id` of /register/:id. */
const trialPlans = ['premium', 'family', 'business'] as const;
type TrialPlan = (typeof trialPlans)[number];

function isTrialPlan(value: string | undefined): value is TrialPlan {
  return (trialPlans as readonly string[]).includes(value ?? '');
}

/** /register/:id: sign-up from a plan link (14-day trial copy) or another invitation. */
export function RegisterWithIdPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const language = (i18n.resolvedLanguage ?? 'en') as Language;

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
