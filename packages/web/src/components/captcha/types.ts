/** What a form asks of its captcha, whichever provider answers. */
export interface CaptchaHandle {
  /** The answer to send as `captcha`: solves or executes the check when needed. */
  token(): Promise<string>;
  /** Answers are single use: after a request has spent one, start over. */
  reset(): void;
}

export type CaptchaErrorKey = 'form.captcha.errors.noKey' | 'form.captcha.errors.noVersion' | 'form.captcha.errors.loadFailed' | 'form.captcha.errors.executeFailed';

/** A captcha that could not give an answer; `key` is its message in the catalogue (the spec's error catalogue). */
export class CaptchaError extends Error {
  constructor(readonly key: CaptchaErrorKey) {
    super(key);
    this.name = 'CaptchaError';
  }
}

/** Whether the server refused a request for its captcha (missing or not accepted): a message about the captcha, not the form. */
export function isCaptchaRefusal(error: { code?: string }): boolean {
  return error.code === 'auth.captcha_required' || error.code === 'auth.captcha_invalid';
}
