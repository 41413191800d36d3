import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Alert.css';
import { useState } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@portal/contracts';
import { placeServerErrors } from '../../components/dialogs/form-errors';
import { newPasswordCodes, newPasswordDefaults, newPasswordSchema, type NewPasswordValues } from './new-password';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ApiError, notify } from '../../lib/api';
import { useAuthState } from '../../lib/session';
import { changePassword, useRefreshSecurity, useSecurityOverview } from './api';
import { Loaded, useLanguage } from './shared';
import { PasswordInputs } from './PasswordInputs';
import { FailureAlert } from '../../components/FailureAlert';

function PasswordForm({ hasPassword, onDone }: { hasPassword: boolean; onDone(): Promise<void> }) {
  const { t } = useTranslation();
  const { user } = useAuthState();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<NewPasswordValues>({ resolver: zodResolver(newPasswordSchema(hasPassword)), defaultValues: newPasswordDefaults });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await changePassword({
        ...(hasPassword ? { current_password: values.current_password } : {}),
        new_password: values.new_password,
        confirm_password: values.confirm_password,
      });
      notify('success', t(hasPassword ? 'security.password.changed' : 'security.password.set'));
      form.reset(newPasswordDefaults);
      await onDone();
    } catch (error) {
      const fields: Path<NewPasswordValues>[] = hasPassword ? ['current_password', 'new_password', 'confirm_password'] : ['new_password', 'confirm_password'];
      const unplaced = placeServerErrors<NewPasswordValues>(error, form.setError, fields, newPasswordCodes as Record<string, Path<NewPasswordValues>>);
      setFailure(unplaced);
      // Other statuses got the API client's toast already.
      if (error instanceof ApiError && error.status === 400) notify('warning', t('security.password.failed'));
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="password-form">
      <Stack gap="md" maw={440}>
        {/* For password managers: the account this password belongs to. */}
        <input type="text" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <PasswordInputs form={form} withCurrent={hasPassword} />
        <FailureAlert failure={failure} />
        <Group>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t(hasPassword ? 'security.password.submit' : 'security.password.setSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /security/password: change the password (the current one first), or set a first one on a passkey-only account. */
export function PasswordPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const overview = useSecurityOverview();
  const refresh = useRefreshSecurity();
  const hasPassword = overview.data?.has_password ?? true;
  /** What was just done: said above the form, with the note that other devices were signed out. */
  const [done, setDone] = useState<'changed' | 'set' | null>(null);

  return (
    <Stack gap="lg">
      <PageHeader title={t('security.password.title')} description={t('security.password.description')} />
      <Loaded query={overview} failure={t('security.overview.loadFailed')}>
        {(data) => (
          <>
            {done && (
              <Alert color="green" variant="light" role="status" data-testid="password-changed" title={t(`security.password.${done}`)}>
                {t('security.password.othersSignedOut')}
              </Alert>
            )}
            <Section
              title={hasPassword ? t('security.password.submit') : t('security.password.setTitle')}
              description={
                hasPassword
                  ? data.password_changed_at
                    ? t('security.password.lastChanged', { date: formatDate(data.password_changed_at, language) })
                    : undefined
                  : t('security.password.setDescription')
              }
            >
              <PasswordForm
                key={String(hasPassword)}
                hasPassword={hasPassword}
                onDone={async () => {
                  setDone(hasPassword ? 'changed' : 'set');
                  await refresh();
                }}
              />
            </Section>
          </>
        )}
      </Loaded>
    </Stack>
  );
}
