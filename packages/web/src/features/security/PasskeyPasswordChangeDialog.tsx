import '../../components/dialogs/styles';
import { useEffect, useState } from 'react';
import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api';
import { placeServerErrors, useFieldMessage } from '../../components/dialogs/form-errors';
import { newPasswordCodes, newPasswordDefaults, newPasswordSchema, type NewPasswordValues } from './new-password';
import { DialogActions } from '../../components/dialogs/DialogActions';

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
  const message = useFieldMessage();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<NewPasswordValues>({ resolver: zodResolver(schema), defaultValues: newPasswordDefaults });

  useEffect(() => {
    if (!opened) {
      form.reset(newPasswordDefaults);
      setFailure(null);
    }
  }, [opened, form]);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit({ new_password: values.new_password, confirm_password: values.confirm_password });
    } catch (error) {
      setFailure(placeServerErrors<NewPasswordValues>(error, form.setError, ['new_password', 'confirm_password'], newPasswordCodes as Record<string, Path<NewPasswordValues>>));
    }
  });

  const toggle = { 'aria-label': t('form.showPassword') };
  return (
    <Modal opened={opened} onClose={onClose} title={t('passkeyUi.setPasswordTitle')} centered closeButtonProps={{ 'aria-label': t('common.close') }}>
      <form noValidate onSubmit={(event) => void submit(event)} data-testid="passkey-password-change">
        <Stack gap="md">
          <Text size="sm">{t('passkeyUi.setPasswordBody')}</Text>
          <input type="text" name="username" autoComplete="username" hidden readOnly />
          <PasswordInput
            label={t('securityCenter.password.new')}
            autoComplete="new-password"
            visibilityToggleButtonProps={toggle}
            data-autofocus
            {...form.register('new_password')}
            error={message(form.formState.errors.new_password?.message)}
          />
          <PasswordInput
            label={t('securityCenter.password.confirm')}
            autoComplete="new-password"
            visibilityToggleButtonProps={toggle}
            {...form.register('confirm_password')}
            error={message(form.formState.errors.confirm_password?.message)}
          />
          <DialogActions failure={failure} onCancel={onClose} submitLabel={t('securityCenter.password.setSubmit')} submitting={form.formState.isSubmitting} />
        </Stack>
      </form>
    </Modal>
  );
}
