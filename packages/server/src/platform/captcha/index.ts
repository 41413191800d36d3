import type { Config } from '../../config';
import { AppError } from '../errors';
import type { RateLimiter } from '../rate-limit/types';
import { createAltchaVerifier } from './altcha';
import { createRecaptchaVerifier } from './recaptcha';
import type { CaptchaLogger, CaptchaVerifier } from './types';

export { ALTCHA_DEFAULTS, createAltchaVerifier, type AltchaOptions } from './altcha';
export { createRecaptchaVerifier, type RecaptchaOptions } from './recaptcha';
export { captchaRoutes } from './routes';
export type { CaptchaLogger, CaptchaVerifier } from './types';

/** The settings the captcha reads; the two optional ones are not in Config yet. */
export type CaptchaConfig = Pick<
  Config,
  'CAPTCHA_PROVIDER' | 'ALTCHA_HMAC_KEY' | 'RECAPTCHA_SITE_KEY' | 'RECAPTCHA_SECRET' | 'RECAPTCHA_VERSION'
> & { RECAPTCHA_PROJECT_ID?: string; RECAPTCHA_MIN_SCORE?: number } & Partial<Pick<Config, 'ALTCHA_COST' | 'PLATFORM_HOSTS' | 'LOCKER_HOSTS' | 'PLATFORM_ORIGIN' | 'LOCKER_ORIGIN'>>;

/** The hosts our pages are served on, which a reCAPTCHA answer must name. */
function pageHostnames(config: CaptchaConfig): string[] | undefined {
  const origins = [config.PLATFORM_ORIGIN, config.LOCKER_ORIGIN].filter((origin): origin is string => Boolean(origin));
  const hosts = [...(config.PLATFORM_HOSTS ?? []), ...(config.LOCKER_HOSTS ?? []), ...origins.map((origin) => new URL(origin).hostname)];
  return hosts.length ? [...new Set(hosts)] : undefined;
}

export interface CaptchaDependencies {
  /** Shared store for spent ALTCHA challenges (pass the app's limiter so Redis covers every node). */
  replayStore?: RateLimiter;
  logger?: CaptchaLogger;
  fetch?: typeof fetch;
}

/** The configured provider. Configuration is validated at start (config.ts), so this does not guess. */
export function createCaptchaVerifier(config: CaptchaConfig, deps: CaptchaDependencies = {}): CaptchaVerifier {
  if (config.CAPTCHA_PROVIDER === 'recaptcha') {
    return createRecaptchaVerifier({
      version: config.RECAPTCHA_VERSION ?? 'standard',
      secret: config.RECAPTCHA_SECRET ?? '',
      siteKey: config.RECAPTCHA_SITE_KEY,
      projectId: config.RECAPTCHA_PROJECT_ID,
      minScore: config.RECAPTCHA_MIN_SCORE,
      hostnames: pageHostnames(config),
      fetch: deps.fetch,
      logger: deps.logger,
    });
  }
  return createAltchaVerifier({ hmacKey: config.ALTCHA_HMAC_KEY, cost: config.ALTCHA_COST, replayStore: deps.replayStore });
}

/** A solved captcha or the 400 that asks for one (`captcha_required` tells the page to show it). */
export async function requireCaptcha(captcha: CaptchaVerifier, answer: string | undefined, ip: string): Promise<void> {
  if (!answer) throw new AppError('auth.captcha_required', {}, { captcha_required: true });
  if (!(await captcha.verify(answer, ip))) throw new AppError('auth.captcha_invalid', {}, { captcha_required: true });
}
