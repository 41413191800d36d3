import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import type { ChangeEvent } from 'react';
import { PasswordInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@portal/contracts';
import { PasswordStrength } from './PasswordStrength';

interface NewPasswordFieldProps {
  label: string;
  /** The form's field: its value, change handler and message. */
  field: { value: string; onChange(event: ChangeEvent<HTMLInputElement>): void; error: string | undefined };
  /** Words the password should not lean on: the user's name and email. */
  userInputs: string[];
  autoFocus?: boolean;
}

/** The field of a password being chosen (sign-up, reset): the rule's hint under it, then how strong it is. */
export function NewPasswordField({ label, field, userInputs, autoFocus }: NewPasswordFieldProps) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <PasswordInput
        label={label}
        name="new-password"
        autoComplete="new-password"
        description={t('auth.register.form.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        autoFocus={autoFocus}
        {...field}
        visibilityToggleButtonProps={{ 'aria-label': t('form.showPassword') }}
      />
      <PasswordStrength password={field.value} userInputs={userInputs} />
    </Stack>
  );
}
