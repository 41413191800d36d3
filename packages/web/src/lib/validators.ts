import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, VERIFICATION_CODE_LENGTH } from '@portal/contracts';

/**
 * The form rules of the identity core, checked in the browser before a request: the same
 * rules and the same words as the server's schemas (contracts `auth/schemas.ts`, `messages`),
 * without zod, so the sign-in page stays light. validators.test.ts holds the two to the
 * same answers. A rule answers null (fine) or a message: an i18n key under `validation.`
 * with its parameters, translated when shown so a language switch re-translates it.
 */

export type ValidationKey =
  | 'validation.blank'
  | 'validation.emailRequired'
  | 'validation.emailInvalid'
  | 'validation.identifierInvalid'
  | 'validation.passwordRequired'
  | 'validation.passwordTooShort'
  | 'validation.passwordTooLong'
  | 'validation.confirmMismatch'
  | 'validation.termsRequired'
  | 'validation.codeFormat'
  | 'validation.recoveryCodeFormat'
  | 'validation.recoveryCode';

export interface ValidationMessage {
  key: ValidationKey;
  params?: Record<string, number>;
}

export type Rule<Value = string> = (value: Value) => ValidationMessage | null;

const message = (key: ValidationKey, params?: Record<string, number>): ValidationMessage => (params ? { key, params } : { key });

/** contracts EMAIL_PATTERN. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL_LENGTH = 254;
/** contracts fullNameSchema's bound: the input stops there (maxLength) rather than erring. */
export const FULL_NAME_MAX_LENGTH = 100;

/** Full name and other required text: 'This field may not be blank.' */
export const required: Rule = (value) => (value.trim() ? null : message('validation.blank'));

/** An email address (sign-up, recovery email, resend). */
export const email: Rule = (value) => {
  const trimmed = value.trim();
  if (!trimmed) return message('validation.emailRequired');
  if (trimmed.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(trimmed)) return message('validation.emailInvalid');
  return null;
};

/** Email or username, as typed on the first sign-in step and the first recovery step. */
export const identifier: Rule = (value) => {
  const trimmed = value.trim();
  if (!trimmed) return message('validation.emailRequired');
  if (trimmed.length > MAX_EMAIL_LENGTH || /\s/.test(trimmed)) return message('validation.identifierInvalid');
  return null;
};

/** A password being presented at sign-in: only that there is one. */
export const password: Rule = (value) => (value ? null : message('validation.passwordRequired'));

/** A password being chosen: 8 characters or more, never trimmed. */
export const newPassword: Rule = (value) => {
  if (!value) return message('validation.passwordRequired');
  if (value.length < PASSWORD_MIN_LENGTH) return message('validation.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
  if (value.length > PASSWORD_MAX_LENGTH) return message('validation.passwordTooLong', { max: PASSWORD_MAX_LENGTH });
  return null;
};

/** The confirmation of a new password: present and the same. */
export const confirmPassword =
  (chosen: string): Rule =>
  (value) => {
    if (!value) return message('validation.blank');
    return value === chosen ? null : message('validation.confirmMismatch');
  };

export const acceptTerms: Rule<boolean> = (accepted) => (accepted ? null : message('validation.termsRequired'));

/** The mailed verification code: 6 digits. */
export const verificationCode: Rule = (value) =>
  new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(value.trim()) ? null : message('validation.codeFormat', { length: VERIFICATION_CODE_LENGTH });

/** The password recovery's mailed code: 6 digits, in the spec's words for it (contracts recoveryVerificationCodeSchema). */
export const recoveryVerificationCode: Rule = (value) =>
  new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`).test(value.trim()) ? null : message('validation.recoveryCodeFormat', { length: VERIFICATION_CODE_LENGTH });

/** contracts recoveryCodeSchema: two groups of five, Crockford base32, any case, the dash optional. */
const RECOVERY_CODE_PATTERN = /^[0-9A-Z]{5}-?[0-9A-Z]{5}$/;

/** A recovery code, typed instead of the six-digit one. */
export const recoveryCode: Rule = (value) => (RECOVERY_CODE_PATTERN.test(value.trim().toUpperCase()) ? null : message('validation.recoveryCode'));

/** Runs `rules` over `values`; the messages of the fields that fail, and whether all passed. */
export function validate<Values extends Record<string, unknown>>(
  values: Values,
  rules: { [Field in keyof Values]?: Rule<Values[Field]> },
): { errors: Partial<Record<keyof Values, ValidationMessage>>; valid: boolean } {
  const errors: Partial<Record<keyof Values, ValidationMessage>> = {};
  for (const field of Object.keys(rules) as (keyof Values)[]) {
    const outcome = rules[field]?.(values[field]);
    if (outcome) errors[field] = outcome;
  }
  return { errors, valid: Object.keys(errors).length === 0 };
}
