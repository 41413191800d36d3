export interface CaptchaVerifier {
  readonly provider: 'altcha' | 'recaptcha';
  /** A fresh ALTCHA challenge (JSON for the widget); null for reCAPTCHA, whose script needs none. */
  challenge(): Promise<unknown>;
  /**
   * True only for a valid, unused answer. Never throws: a malformed answer, an expired or
   * replayed challenge, or a provider that cannot be reached all answer false.
   */
  verify(answer: string | undefined, ip: string): Promise<boolean>;
}

/** The slice of a pino / Fastify logger the verifiers use (never given a secret or a token). */
export interface CaptchaLogger {
  warn(object: object, message: string): void;
}

/** Longest answer worth looking at; real ALTCHA payloads and reCAPTCHA tokens are a few KB. */
export const MAX_ANSWER_LENGTH = 8192;
