import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Button.css';
import { useState, type FormEvent } from 'react';
import { Button, PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldError } from '@portal/contracts';
import { NewPasswordField } from '../../../components/NewPasswordField';
import { ApiError, fieldErrors } from '../../../lib/api';
import { useForm } from '../../../lib/use-form';
import { confirmPassword, newPassword } from '../../../lib/validators';
import { resetPassword } from './api';
import { FailureAlert } from '../../../components/FailureAlert';

/** Server field names to this form's fields (a too-common password is reported as `password`). */
const serverFields: Record<string, 'newPassword' | 'confirm'> = {
  new_password: 'newPassword',
  password: 'newPassword',
  confirm_password: 'confirm',
};

interface NewPasswordFormProps {
  token: string;
  /** The password is set (every session was signed out). */
  onDone(): void;
  /** The token died meanwhile (expired, used elsewhere). */
  onInvalid(): void;
  /** Words the password should not lean on (the identifier). */
  userInputs?: string[];
}

/** New password and its confirmation: the last step of /forgot and the /reset-pwd page. */
export function NewPasswordForm({ token, onDone, onInvalid, userInputs = [] }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm({ newPassword: '', confirm: '' }, (values) => ({ newPassword, confirm: confirmPassword(values.newPassword) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending || !form.check()) return;
    setPending(true);
    setFailure(null);
    try {
      await resetPassword(token, form.values.newPassword, form.values.confirm);
      onDone();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'auth.reset_link_invalid') return onInvalid();
      const mapped: Record<string, FieldError> = {};
      for (const [name, message] of Object.entries(fieldErrors(error))) if (serverFields[name]) mapped[serverFields[name]] = message;
      if (Object.keys(mapped).length > 0) form.setServerErrors(mapped);
      else setFailure(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <NewPasswordField label={t('auth.recovery.resetPassword.newPassword')} field={form.text('newPassword')} userInputs={userInputs} autoFocus />
        <PasswordInput
          label={t('auth.recovery.resetPassword.confirmPassword')}
          name="confirm-password"
          autoComplete="new-password"
          {...form.text('confirm')}
          visibilityToggleButtonProps={{ 'aria-label': t('form.showPassword') }}
        />
        <FailureAlert failure={failure} />
        <Button type="submit" fullWidth loading={pending}>
          {t('auth.recovery.resetPassword.submit')}
        </Button>
      </Stack>
    </form>
  );
}
