import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, PRICES_USD_MONTHLY, TRIAL_DAYS, type Language } from '@portal/contracts';
import type { CurrentService } from '../../../lib/service';

/** The sign-up blurb for the current service, with its offer (trial or free project) if any. */
export function SignupOffer({ service }: { service: CurrentService }) {
  const { t, i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? 'en') as Language;
  const { offer } = service.entry;
  return (
    <Stack gap={4} data-testid="signup-offer">
      <Text c="dimmed">{t(`app.scopes.${service.key}.blurb`)}</Text>
      {offer === 'trial' && (
        <>
          <Text size="sm" fw={500}>
            {t('auth.register.offer.trial', { days: TRIAL_DAYS })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('auth.register.offer.prices', {
              premium: formatMoney(PRICES_USD_MONTHLY.premium, 'USD', language),
              family: formatMoney(PRICES_USD_MONTHLY.family, 'USD', language),
            })}
          </Text>
        </>
      )}
      {offer === 'free_project' && (
        <Text size="sm" fw={500}>
          {t('auth.register.offer.freeProject')}
        </Text>
      )}
    </Stack>
  );
}
