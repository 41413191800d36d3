import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Input.css';
import { PasswordInput } from '@mantine/core';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useFieldMessage } from '../../components/dialogs/form-errors';
import type { NewPasswordValues } from './new-password';

interface PasswordInputsProps {
  form: UseFormReturn<NewPasswordValues>;
  /** Asks for the current password first (an account that has one). */
  withCurrent?: boolean;
  /** The new password's field takes the focus (in a dialog). */
  autoFocus?: boolean;
}

/** The fields of a password change: the current password (when asked), the new one and its confirmation. */
export function PasswordInputs({ form, withCurrent, autoFocus }: PasswordInputsProps) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const toggle = { 'aria-label': t('form.showPassword') };
  const field = (name: keyof NewPasswordValues, label: string, autoComplete: string) => (
    <PasswordInput
      label={label}
      autoComplete={autoComplete}
      visibilityToggleButtonProps={toggle}
      data-autofocus={autoFocus && name === 'new_password' ? true : undefined}
      {...form.register(name)}
      error={message(form.formState.errors[name]?.message)}
    />
  );
  return (
    <>
      {withCurrent && field('current_password', t('security.password.current'), 'current-password')}
      {field('new_password', t('security.password.new'), 'new-password')}
      {field('confirm_password', t('security.password.confirm'), 'new-password')}
    </>
  );
}
