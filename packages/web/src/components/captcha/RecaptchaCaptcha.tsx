import { useEffect, useImperativeHandle, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { RuntimeConfig } from '@portal/contracts';
import classes from './Captcha.module.css';
import { executeRecaptcha, loadRecaptcha } from './recaptcha';
import { CaptchaError, type CaptchaHandle } from './types';

export interface RecaptchaCaptchaProps {
  settings: RuntimeConfig['captcha'];
  /** reCAPTCHA's action name for the score (login, signup...). */
  action: string;
  ref?: Ref<CaptchaHandle>;
}

/**
 * reCAPTCHA, score-based: nothing to click; the script loads with the page and a token is
 * asked for when the form is sent. A setup or load failure shows here, in the spec's words.
 */
export default function RecaptchaCaptcha({ settings, action, ref }: RecaptchaCaptchaProps) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<CaptchaError | null>(null);

  useEffect(() => {
    loadRecaptcha(settings).then(
      () => setFailure(null),
      (error: unknown) => setFailure(error instanceof CaptchaError ? error : new CaptchaError('form.captcha.errors.loadFailed')),
    );
  }, [settings]);

  useImperativeHandle(
    ref,
    () => ({
      async token() {
        try {
          const token = await executeRecaptcha(settings, action);
          setFailure(null);
          return token;
        } catch (error) {
          const known = error instanceof CaptchaError ? error : new CaptchaError('form.captcha.errors.executeFailed');
          setFailure(known);
          throw known;
        }
      },
      reset() {},
    }),
    [settings, action],
  );

  return failure ? (
    <div className={classes.error} role="alert" data-testid="captcha">
      {t(failure.key)}
    </div>
  ) : null;
}
