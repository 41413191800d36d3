import '../../../components/dialogs/styles';
import { PasswordInput, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { TwoFactorMethod } from '@portal/contracts';
import { secondFactorCodes, useFieldMessage } from '../../../components/dialogs/form-errors';
import { checkSecondFactor, secondFactorBody, secondFactorDefaults, secondFactorFields, secondFactorShape, type SecondFactorValues } from '../../../components/dialogs/second-factor';
import { SecondFactorFields } from '../../../components/dialogs/SecondFactorFields';
import type { EmailChangeBody } from './api';
import { FormDialog } from '../../../components/dialogs/FormDialog';
import { useDialogForm } from '../../../components/dialogs/use-dialog-form';

/** contracts emailSchema, with the messages as i18n keys. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const emailField = z.string().trim().min(1, 'validation.emailRequired').max(254, 'validation.emailInvalid').regex(EMAIL_PATTERN, 'validation.emailInvalid');

const sameAddress = (a: string, b: string | null | undefined) => Boolean(b) && a.trim().toLowerCase() === b!.trim().toLowerCase();

/** Server codes that belong to the address field. */
const addressCodes = <Field extends string>(field: Field) => ({ 'auth.email_exists': field, 'auth.email_not_valid': field });

interface AddressFieldProps {
  /** What the dialog is for, above the field. */
  body: string;
  label: string;
  testId: string;
  registration: UseFormRegisterReturn;
  error: string | undefined;
}

/** The dialog's text and the address field it opens on. */
function AddressField({ body, label, testId, registration, error }: AddressFieldProps) {
  return (
    <>
      <Text size="sm" c="dimmed">
        {body}
      </Text>
      <TextInput label={label} type="email" autoComplete="email" data-autofocus {...registration} error={error} data-testid={testId} />
    </>
  );
}

interface ChangeEmailDialogProps {
  opened: boolean;
  onClose(): void;
  currentEmail: string;
  method: TwoFactorMethod | null | undefined;
  /** POST /sso/me/email/change; resolves once the code is on its way to `new_email`. */
  onSubmit(body: EmailChangeBody): Promise<unknown>;
}

type ChangeValues = SecondFactorValues & { new_email: string };

/** Step one of changing the primary email: the new address, the password (and the second factor when on). */
export function ChangeEmailDialog({ opened, onClose, currentEmail, method, onSubmit }: ChangeEmailDialogProps) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const schema = z.object({ ...secondFactorShape, new_email: emailField }).superRefine((values, ctx) => {
    if (sameAddress(values.new_email, currentEmail)) ctx.addIssue({ code: 'custom', path: ['new_email'], message: 'account.email.primary.sameEmail' });
    checkSecondFactor(values, method, ctx);
  });
  const { form, failure, submit } = useDialogForm<ChangeValues>(opened, {
    resolver: zodResolver(schema),
    defaultValues: { ...secondFactorDefaults, new_email: '' },
    fields: [...secondFactorFields, 'new_email'],
    codes: { ...secondFactorCodes, ...addressCodes('new_email') },
    send: (values) => onSubmit({ new_email: values.new_email.trim().toLowerCase(), ...secondFactorBody(values, method) }),
  });

  return (
    <FormDialog opened={opened} onClose={onClose} title={t('account.email.primary.dialogTitle')} onSubmit={submit} failure={failure} submitLabel={t('common.continue')} submitting={form.formState.isSubmitting}>
      <AddressField body={t('account.email.primary.dialogBody')} label={t('account.email.primary.newEmail')} testId="new-email" registration={form.register('new_email')} error={message(form.formState.errors.new_email?.message)} />
      <SecondFactorFields control={form.control} method={method} />
    </FormDialog>
  );
}

interface RecoveryEmailDialogProps {
  opened: boolean;
  onClose(): void;
  primaryEmail: string;
  /** PUT /sso/me/recovery-email; resolves once the code is on its way. */
  onSubmit(body: { email: string; password: string }): Promise<unknown>;
}

type RecoveryValues = { email: string; password: string };

/** Add (or replace) the recovery email: the address and the password. */
export function RecoveryEmailDialog({ opened, onClose, primaryEmail, onSubmit }: RecoveryEmailDialogProps) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const schema = z.object({ email: emailField, password: z.string().min(1, 'validation.passwordRequired') }).superRefine((values, ctx) => {
    if (sameAddress(values.email, primaryEmail)) ctx.addIssue({ code: 'custom', path: ['email'], message: 'account.email.recovery.mustDiffer' });
  });
  const { form, failure, submit } = useDialogForm<RecoveryValues>(opened, {
    resolver: zodResolver(schema),
    defaultValues: { email: '', password: '' },
    fields: ['email', 'password'],
    codes: { ...addressCodes('email'), 'auth.invalid_credentials': 'password' },
    send: (values) => onSubmit({ email: values.email.trim().toLowerCase(), password: values.password }),
  });

  return (
    <FormDialog opened={opened} onClose={onClose} title={t('account.email.recovery.dialogTitle')} onSubmit={submit} failure={failure} submitLabel={t('common.continue')} submitting={form.formState.isSubmitting}>
      <AddressField body={t('account.email.recovery.dialogBody')} label={t('account.email.recovery.label')} testId="recovery-email" registration={form.register('email')} error={message(form.formState.errors.email?.message)} />
      <PasswordInput
        label={t('mfa.secondFactor.password')}
        autoComplete="current-password"
        visibilityToggleButtonProps={{ 'aria-label': t('form.showPassword') }}
        {...form.register('password')}
        error={message(form.formState.errors.password?.message)}
        data-testid="confirm-password"
      />
    </FormDialog>
  );
}
