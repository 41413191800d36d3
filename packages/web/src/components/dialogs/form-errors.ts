import { useTranslation } from 'react-i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, fieldErrors, translateServerText } from '../../lib/api';
import { i18n } from '../../lib/i18n';

/**
 * Form messages of the account pages. The browser's own rules give i18n keys (with
 * parameters after a `|`: `account.validation.tooLong|{"max":200}`), the server's field
 * messages come as English text; both are kept as they are and put into the current
 * language when shown, so a language switch re-translates what is on screen.
 */
export function messageKey(key: string, params?: Record<string, string | number>): string {
  return params ? `${key}|${JSON.stringify(params)}` : key;
}

/** The account catalogue's English texts, to recognise a server field message (e.g. 'This username is already taken'). */
function accountTextKey(text: string): string | undefined {
  const wanted = text.trim().toLowerCase().replace(/\.$/, '');
  let found: string | undefined;
  const walk = (node: unknown, path: string) => {
    if (found) return;
    if (typeof node === 'string') {
      if (!node.includes('{') && node.trim().toLowerCase().replace(/\.$/, '') === wanted) found = path;
    } else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) walk(child, path ? `${path}.${key}` : key);
    }
  };
  for (const group of ['account.validation', 'secondFactor', 'validation']) walk(i18n.getResource('en', 'translation', group), group);
  return found;
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
  const known = accountTextKey(message);
  return known ? String(i18n.t(known as never)) : translateServerText(message);
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
  const raw = (error.details?.fields ?? {}) as Record<string, unknown>;
  let placed = false;
  for (const name of Object.keys(fieldErrors(error))) {
    if ((fields as readonly string[]).includes(name)) {
      // The server's own words, translated when shown (translateMessage).
      setError(name as Path<Values>, { type: 'server', message: String(raw[name]) });
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
