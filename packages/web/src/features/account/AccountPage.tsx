import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import { useState } from 'react';
import { Alert, Anchor, Button, Divider, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_DELETION_WINDOW_DAYS, DELETION_CONFIRMATION_WORD, formatDate, isLanguage, languages, paths } from '@portal/contracts';
import { LabelAbove } from '../../components/LabelAbove';
import { PageHeader } from '../../components/PageHeader';
import { PasswordDialog, type PasswordCredentials } from '../../components/dialogs/PasswordDialog';
import { Section } from '../../components/Section';
import { notify } from '../../lib/api';
import { chooseLanguage } from '../../lib/language';
import { clearSession, useAuthState } from '../../lib/session';
import { requestDeletion } from './api';
import { AvatarField } from './AvatarField';
import { ConnectedApps } from './ConnectedApps';
import { ProfileForm } from './ProfileForm';

/** /account: general profile and preferences (language, account deletion). */
export function AccountPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('account.title')} description={t('account.description')} />
      <Section title={t('account.profile.title')} description={t('account.profile.description')}>
        <Stack gap="lg" mt="sm">
          <AvatarField />
          <Divider />
          <ProfileForm />
        </Stack>
      </Section>
      <PreferencesSection />
      <ConnectedApps />
      <DeletionSection />
    </Stack>
  );
}

/** Language (saved on the account by the picker), and what only Vietnamese users are offered. */
function PreferencesSection() {
  const { t, i18n } = useTranslation();
  const { user } = useAuthState();
  // The spec's permissions: some options are for Vietnamese users only.
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const vietnamese = current === 'vi' || user?.customer_language === 'vi';
  return (
    <Section title={t('account.preferences.title')} description={t('account.preferences.description')}>
      <Stack gap="md" mt="xs">
        <LabelAbove label={t('account.preferences.language')}>
          {(labelId) => (
            <>
              <SegmentedControl
                aria-labelledby={labelId}
                data={languages.map((language) => ({ value: language, label: t(`language.${language}`) }))}
                value={current}
                // The header's picker does the same: switch, the lang cookie, and PUT /sso/me with both languages.
                onChange={(value) => {
                  if (isLanguage(value)) chooseLanguage(value).catch(() => undefined);
                }}
                style={{ alignSelf: 'flex-start' }}
                data-testid="preferences-language"
              />
              <Text size="xs" c="dimmed">
                {t('account.preferences.languageHint')}
              </Text>
            </>
          )}
        </LabelAbove>
        {vietnamese && (
          <Alert variant="light" color="blue" title={t('account.preferences.vnd')} data-testid="vietnamese-only">
            <Stack gap={6} align="flex-start">
              <Text size="sm">{t('account.preferences.vndBody')}</Text>
              <Anchor component={Link} to={paths.walletVnd} size="sm" fw={500}>
                {t('account.preferences.vndAction')}
              </Anchor>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Section>
  );
}

/** Deletion: password (+ second factor) and the typed word; then signed out, on /login/explore. */
function DeletionSection() {
  const { t, i18n } = useTranslation();
  const { user } = useAuthState();
  const [open, setOpen] = useState(false);

  const remove = async (credentials: PasswordCredentials) => {
    const dueAt = await requestDeletion(credentials);
    setOpen(false);
    notify('success', t('account.deletion.scheduled', { date: formatDate(dueAt, isLanguage(i18n.language) ? i18n.language : 'en') }));
    // The server has ended every session; this side forgets it and goes to /login/explore.
    clearSession();
  };

  return (
    <Section title={t('account.deletion.title')} description={t('account.deletion.description', { days: ACCOUNT_DELETION_WINDOW_DAYS })}>
      <Group mt="xs">
        <Button color="red" variant="outline" onClick={() => setOpen(true)} data-testid="delete-account">
          {t('account.deletion.button')}
        </Button>
      </Group>
      <PasswordDialog
        opened={open}
        onClose={() => setOpen(false)}
        title={t('account.deletion.dialogTitle')}
        method={user?.two_factor_method}
        submitLabel={t('account.deletion.submit')}
        danger
        confirmWord={DELETION_CONFIRMATION_WORD}
        onSubmit={remove}
      >
        <Alert color="red" variant="light">
          <Stack gap={4}>
            <Text size="sm">{t('account.deletion.warning')}</Text>
            <Text size="sm" fw={500}>
              {t('account.deletion.description', { days: ACCOUNT_DELETION_WINDOW_DAYS })}
            </Text>
          </Stack>
        </Alert>
      </PasswordDialog>
    </Section>
  );
}
