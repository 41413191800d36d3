import './styles';
import type { ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { TwoFactorMethod } from '@portal/contracts';
import { messageKey, secondFactorCodes, useFieldMessage } from './form-errors';
import { checkSecondFactor, secondFactorBody, secondFactorDefaults, secondFactorFields, secondFactorShape, type SecondFactorValues } from './second-factor';
import { SecondFactorFields } from './SecondFactorFields';
import { FormDialog } from './FormDialog';
import { useDialogForm } from './use-dialog-form';

export interface PasswordCredentials {
  password: string;
  code?: string;
  recovery_code?: string;
  /** The typed confirmation word, when the dialog asks for one. */
  confirmation?: string;
}

export interface PasswordDialogProps {
  opened: boolean;
  onClose(): void;
  title: string;
  /** What is about to happen, above the fields. */
  children?: ReactNode;
  /** The account's two-step method: the dialog then asks for a code too. */
  method: TwoFactorMethod | null | undefined;
  submitLabel: string;
  /** Red submit button, for what cannot be undone lightly. */
  danger?: boolean;
  /** A word to type before the action runs (account deletion: DELETE). */
  confirmWord?: string;
  /** Runs the action; a 400 is shown in the dialog (under the field it names, when it names one). */
  onSubmit(credentials: PasswordCredentials): Promise<unknown>;
}

type Values = SecondFactorValues & { confirmation: string };

/**
 * The password dialog: actions that change how one signs in, or end the account, ask for
 * the password again, and the second factor when two-step verification is on.
 */
export function PasswordDialog({ opened, onClose, title, children, method, submitLabel, danger, confirmWord, onSubmit }: PasswordDialogProps) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const schema = z.object({ ...secondFactorShape, confirmation: z.string() }).superRefine((values, ctx) => {
    checkSecondFactor(values, method, ctx);
    if (confirmWord && values.confirmation.trim() !== confirmWord) {
      ctx.addIssue({ code: 'custom', path: ['confirmation'], message: messageKey('account.deletion.confirmMismatch', { word: confirmWord }) });
    }
  });
  const { form, failure, submit } = useDialogForm<Values>(opened, {
    resolver: zodResolver(schema),
    defaultValues: { ...secondFactorDefaults, confirmation: '' },
    fields: [...secondFactorFields, 'confirmation'],
    codes: { ...secondFactorCodes, 'account.confirmation_mismatch': 'confirmation' as Path<Values> },
    send: (values) => onSubmit({ ...secondFactorBody(values, method), ...(confirmWord ? { confirmation: values.confirmation.trim() } : {}) }),
  });

  return (
    <FormDialog opened={opened} onClose={onClose} title={title} onSubmit={submit} failure={failure} submitLabel={submitLabel} submitting={form.formState.isSubmitting} danger={danger}>
      {children}
      <SecondFactorFields control={form.control} method={method} />
      {confirmWord && (
        <TextInput
          label={t('account.deletion.confirmLabel', { word: confirmWord })}
          autoComplete="off"
          {...form.register('confirmation')}
          error={message(form.formState.errors.confirmation?.message)}
          data-testid="confirm-word"
        />
      )}
    </FormDialog>
  );
}
