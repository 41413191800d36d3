import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_DELETION_WINDOW_DAYS } from '@portal/contracts';
import { LanguagePicker } from '../../components/LanguagePicker';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';

/** /account: general profile and preferences (language, account deletion). */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('account.title')} description={t('account.description')} />
      <Section title={t('account.profile.title')} description={t('account.profile.description')} />
      <Section title={t('account.preferences.title')} description={t('account.preferences.description')}>
        <LanguagePicker />
      </Section>
      <Section
        title={t('account.deletion.title')}
        description={t('account.deletion.description', { days: ACCOUNT_DELETION_WINDOW_DAYS })}
      />
    </Stack>
  );
}
