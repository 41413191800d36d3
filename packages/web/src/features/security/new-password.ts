import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@portal/contracts';
import { messageKey } from '../../components/dialogs/form-errors';

/**
 * The rules of a password change or a first password (contracts changePasswordRequestSchema,
 * the spec's validation rules): the new one 8 to 64 characters and different from the current one, and
 * the confirmation equal to it ('Confirm password is not match!'). Messages are i18n keys,
 * translated when shown.
 */
export interface NewPasswordValues {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

export const newPasswordDefaults: NewPasswordValues = { current_password: '', new_password: '', confirm_password: '' };

export function newPasswordSchema(requireCurrent: boolean) {
  return z
    .object({ current_password: z.string(), new_password: z.string(), confirm_password: z.string() })
    .superRefine((values, ctx) => {
      if (requireCurrent && !values.current_password) ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'validation.passwordRequired' });
      const next = values.new_password;
      if (!next) ctx.addIssue({ code: 'custom', path: ['new_password'], message: 'validation.passwordRequired' });
      else if (next.length < PASSWORD_MIN_LENGTH) {
        ctx.addIssue({ code: 'custom', path: ['new_password'], message: messageKey('validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH }) });
      } else if (next.length > PASSWORD_MAX_LENGTH) {
        ctx.addIssue({ code: 'custom', path: ['new_password'], message: messageKey('validation.passwordTooLong', { max: PASSWORD_MAX_LENGTH }) });
      } else if (requireCurrent && values.current_password && next === values.current_password) {
        ctx.addIssue({ code: 'custom', path: ['new_password'], message: 'security.password.mustDiffer' });
      }
      if (!values.confirm_password) ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'validation.blank' });
      else if (values.confirm_password !== next) ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'validation.confirmMismatch' });
    });
}

/** Error codes of PUT /sso/me/password that belong to one field. */
export const newPasswordCodes = {
  'auth.password_not_valid': 'current_password',
  'auth.current_password_required': 'current_password',
  'auth.password_same_as_old': 'new_password',
  'auth.password_too_common': 'new_password',
  'auth.confirm_password_mismatch': 'confirm_password',
} as const;
