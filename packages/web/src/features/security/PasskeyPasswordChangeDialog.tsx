import '../../components/dialogs/styles';
import { Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/dialogs/FormDialog';
import { useDialogForm } from '../../components/dialogs/use-dialog-form';
import { newPasswordCodes, newPasswordDefaults, newPasswordSchema, type NewPasswordValues } from './new-password';
import { PasswordInputs } from './PasswordInputs';

export interface PasskeyPasswordChangeDialogProps {
  opened: boolean;
  onClose(): void;
  /** PUT /sso/me/password without current_password (an account with no password yet). */
  onSubmit(body: { new_password: string; confirm_password: string }): Promise<unknown>;
}

const schema = newPasswordSchema(false);

/**
 * The passkey password-change dialog: an account made with a passkey has no password; this
 * sets its first one (new and confirm, no current password).
 */
export function PasskeyPasswordChangeDialog({ opened, onClose, onSubmit }: PasskeyPasswordChangeDialogProps) {
  const { t } = useTranslation();
  const { form, failure, submit } = useDialogForm<NewPasswordValues>(opened, {
    resolver: zodResolver(schema),
    defaultValues: newPasswordDefaults,
    fields: ['new_password', 'confirm_password'],
    codes: newPasswordCodes as Record<string, Path<NewPasswordValues>>,
    send: (values) => onSubmit({ new_password: values.new_password, confirm_password: values.confirm_password }),
  });

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t('passkeys.setPasswordTitle')}
      onSubmit={submit}
      failure={failure}
      submitLabel={t('security.password.setSubmit')}
      submitting={form.formState.isSubmitting}
      testId="passkey-password-change"
    >
      <Text size="sm">{t('passkeys.setPasswordBody')}</Text>
      <input type="text" name="username" autoComplete="username" hidden readOnly />
      <PasswordInputs form={form} autoFocus />
    </FormDialog>
  );
}
