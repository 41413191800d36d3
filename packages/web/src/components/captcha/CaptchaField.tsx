import { lazy, Suspense, useCallback, useImperativeHandle, useRef, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { firstPaintRoutes } from '@portal/contracts';
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

/** A promise with its resolver, replaced whenever the provider unmounts. */
function whenLoaded() {
  let resolve: (handle: CaptchaHandle) => void = () => undefined;
  const promise = new Promise<CaptchaHandle>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * The deployment's captcha (RuntimeConfig.captcha), behind one handle: `token()` and `reset()`.
 * The handle exists from the first render: a form submitted while the provider's code is still
 * loading waits for it instead of going without an answer.
 */
export function CaptchaField({ action, auto = 'onfocus', onChange, ref }: CaptchaFieldProps) {
  const config = useRuntimeConfig();
  const { t, i18n } = useTranslation();
  const base = config.apiBaseUrl.replace(/\/+$/, '');
  const provider = useRef<CaptchaHandle | null>(null);
  const loaded = useRef(whenLoaded());
  const providerRef = useCallback((handle: CaptchaHandle | null) => {
    provider.current = handle;
    if (handle) loaded.current.resolve(handle);
    else loaded.current = whenLoaded();
  }, []);
  useImperativeHandle(
    ref,
    () => ({
      token: async () => (provider.current ?? (await loaded.current.promise)).token(),
      reset: () => provider.current?.reset(),
    }),
    [],
  );
  return (
    <Suspense fallback={<Spinner size="sm" label={t('app.loading')} />}>
      {config.captcha.provider === 'recaptcha' ? (
        <RecaptchaCaptcha ref={providerRef} settings={config.captcha} action={action} />
      ) : (
        <AltchaCaptcha
          ref={providerRef}
          challengeUrl={`${base}${firstPaintRoutes.captchaChallenge.path}`}
          language={i18n.resolvedLanguage ?? i18n.language}
          auto={auto}
          onChange={onChange}
        />
      )}
    </Suspense>
  );
}
