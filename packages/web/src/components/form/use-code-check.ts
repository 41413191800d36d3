import { useCallback, useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../lib/api';
import { verificationCode } from '../../lib/validators';
import { messageKey, translateMessage } from '../dialogs/form-errors';
import type { OtpInputProps } from './OtpInput';

export interface CodeCheck {
  /** For OtpInput: the code, its changes, its completion (which submits) and its message. */
  input: Pick<OtpInputProps, 'value' | 'onChange' | 'onComplete' | 'error'>;
  /** What went wrong, in the current language. */
  message: string | undefined;
  /** The server's refusal, when that is what went wrong. */
  refusal: ApiError | null;
  pending: boolean;
  /** Checks the code typed (or `code`): a malformed one is said without a request. */
  submit(code?: string): Promise<void>;
  /** The form's submit handler: checks the code typed. */
  submitForm(event: FormEvent): void;
  /** Another check (a recovery code instead) with the same waiting and the same handling of a refusal. */
  attempt(check: () => Promise<unknown>): Promise<void>;
  /** A message of the browser's own rules (an i18n key), or none. */
  setProblem(problem: string | null): void;
  /** Empty boxes, no message: for a dialog closed and opened again. */
  reset(): void;
}

/**
 * A six-digit code that the server checks as soon as it is typed: the state behind OtpInput
 * in the dialogs and forms that ask for one. A refusal (400: wrong or expired) is said under
 * emptied boxes, ready for the next try; any other failure is the API client's policy's to report.
 */
export function useCodeCheck(check: (code: string) => Promise<unknown>): CodeCheck {
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | ApiError | null>(null);
  const [pending, setPending] = useState(false);

  const attempt = async (run: () => Promise<unknown>) => {
    if (pending) return;
    setPending(true);
    setProblem(null);
    try {
      await run();
      setCode('');
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setProblem(error);
        setCode('');
      }
    } finally {
      setPending(false);
    }
  };

  const submit = async (value = code) => {
    if (pending) return;
    const malformed = verificationCode(value);
    if (malformed) return setProblem(messageKey(malformed.key, malformed.params));
    await attempt(() => check(value));
  };

  const reset = useCallback(() => {
    setCode('');
    setProblem(null);
  }, []);

  const message = problem instanceof ApiError ? errorText(problem) : translateMessage(problem ?? undefined);
  return {
    input: {
      value: code,
      onChange: (value) => {
        setCode(value);
        if (value) setProblem(null);
      },
      onComplete: (value) => void submit(value),
      error: message,
    },
    message,
    refusal: problem instanceof ApiError ? problem : null,
    pending,
    submit,
    submitForm: (event) => {
      event.preventDefault();
      void submit();
    },
    attempt,
    setProblem,
    reset,
  };
}
