import { lazy, Suspense, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../lib/runtime-context';
import { Spinner } from '../Spinner';
import type { CaptchaHandle } from './types';

// Each provider's code arrives only on the pages that show a captcha, and only then.
const AltchaCaptcha = lazy(() => import('./AltchaCaptcha'));
const RecaptchaCaptcha = lazy(() => import('./RecaptchaCaptcha'));

export interface CaptchaFieldProps {
  /** reCAPTCHA's action name: login, signup, recovery, captcha. */
  action: string;
  /** ALTCHA: solve at once ('onload') or when the form is first used ('onfocus'). */
  auto?: 'onload' | 'onfocus';
  onChange?(payload: string | null): void;
  ref?: Ref<CaptchaHandle>;
}

/** The deployment's captcha (RuntimeConfig.captcha), behind one handle: `token()` and `reset()`. */
export function CaptchaField({ action, auto = 'onfocus', onChange, ref }: CaptchaFieldProps) {
  const config = useRuntimeConfig();
  const { t, i18n } = useTranslation();
  const base = config.apiBaseUrl.replace(/\/+$/, '');
  return (
    <Suspense fallback={<Spinner size="sm" label={t('app.loading')} />}>
      {config.captcha.provider === 'recaptcha' ? (
        <RecaptchaCaptcha ref={ref} settings={config.captcha} action={action} />
      ) : (
        <AltchaCaptcha
          ref={ref}
          challengeUrl={`${base}/sso/captcha/challenge`}
          language={i18n.resolvedLanguage ?? i18n.language}
          auto={auto}
          onChange={onChange}
        />
      )}
    </Suspense>
  );
}
