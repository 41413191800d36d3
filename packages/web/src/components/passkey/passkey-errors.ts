import { ApiError, errorText } from '../../lib/api';
import { i18n } from '../../lib/i18n';
import { CeremonyError } from './ceremony';

/**
 * What a failed passkey ceremony says, in the language shown now: the browser's own
 * refusals (cancelled, already registered, unsupported) in our words, the server's by its
 * error code; anything else is the spec's 'Passkeys authentication failed' (sign-in) or
 * 'Failed to log in/sign up with passkeys' (sign-up).
 */
export function passkeyErrorText(error: unknown, kind: 'auth' | 'signup' | 'create' = 'auth'): string {
  if (error instanceof CeremonyError) {
    if (error.problem === 'cancelled') return i18n.t('passkeys.cancelled');
    if (error.problem === 'exists') return i18n.t('passkeys.exists');
    if (error.problem === 'unsupported') return i18n.t('passkeys.unsupported');
  }
  if (error instanceof ApiError && ((error.status === 400 && error.code !== 'validation_error') || error.status === 429 || error.status === 403)) return errorText(error);
  return i18n.t(kind === 'signup' ? 'passkeys.signUpFailed' : 'passkeys.failed');
}
