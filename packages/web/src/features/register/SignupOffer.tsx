import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TRIAL_DAYS } from '@portal/contracts';
import type { CurrentService } from '../../lib/service';

/** The sign-up blurb for the current service, with its offer (trial or free project) if any. */
export function SignupOffer({ service }: { service: CurrentService }) {
  const { t } = useTranslation();
  const { offer } = service.entry;
  return (
    <>
      <Text c="dimmed">{t(`scopes.${service.key}.blurb`)}</Text>
      {offer === 'trial' && <Text size="sm">{t('service.trialOffer', { days: TRIAL_DAYS })}</Text>}
      {offer === 'free_project' && <Text size="sm">{t('service.freeProjectOffer')}</Text>}
    </>
  );
}
