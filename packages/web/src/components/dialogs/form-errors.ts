import { useTranslation } from 'react-i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, fieldErrorKey, fieldErrors } from '../../lib/api';
import { i18n } from '../../lib/i18n';

/**
 * Form messages of the account pages: i18n keys (with parameters after a `|`:
 * `account.validation.tooLong|{"max":200}`), from the browser's own rules and from the
 * server's field codes, put into the current language when shown, so a language switch
 * re-translates what is on screen. A server field error without words of ours stays English.
 */
export function messageKey(key: string, params?: Record<string, string | number>): string {
  return params ? `${key}|${JSON.stringify(params)}` : key;
}

export function translateMessage(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const [key, rawParams] = message.split('|', 2) as [string, string | undefined];
  if (i18n.exists(key)) {
    let params: Record<string, unknown> = {};
    try {
      params = rawParams ? (JSON.parse(rawParams) as Record<string, unknown>) : {};
    } catch {
      params = {};
    }
    return String(i18n.t(key as never, params as never));
  }
  return message;
}

/** `translateMessage`, re-rendered on a language switch. */
export function useFieldMessage(): (message: string | undefined) => string | undefined {
  // Subscribes the component to language changes.
  useTranslation();
  return translateMessage;
}

/**
 * After a failed submit (the request handled 400 itself; the shared policy reported any
 * other failure): the server's `details.fields` go under the inputs they name, and so do
 * errors whose code belongs to one field (a wrong password, a wrong code); a 400 with
 * nothing to place is answered back, for the form to show it whole.
 */
export function placeServerErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields: readonly Path<Values>[],
  codes: Partial<Record<string, Path<Values>>> = {},
): ApiError | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  let placed = false;
  for (const [name, fieldError] of Object.entries(fieldErrors(error))) {
    if ((fields as readonly string[]).includes(name)) {
      // The code's key, translated when shown (translateMessage); the English message when we have no words for it.
      const known = fieldErrorKey(fieldError);
      setError(name as Path<Values>, { type: 'server', message: known ? messageKey(known.key, known.params) : fieldError.message });
      placed = true;
    }
  }
  const field = codes[error.code];
  if (!placed && field) {
    const params: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(error.details ?? {})) if (typeof value === 'string' || typeof value === 'number') params[key] = value;
    const key = `errors.${error.code}`;
    setError(field, { type: 'server', message: i18n.exists(key) ? messageKey(key, params) : (error.serverMessage ?? error.message) });
    placed = true;
  }
  return placed ? null : error;
}

/** Error codes that belong to the password and second-factor fields. */
export const secondFactorCodes = {
  'auth.invalid_credentials': 'password',
  'auth.password_not_valid': 'password',
  'auth.current_password_required': 'password',
  'auth.code_invalid': 'code',
  'auth.recovery_code_invalid': 'recovery_code',
} as const;
