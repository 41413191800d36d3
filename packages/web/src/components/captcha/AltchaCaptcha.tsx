import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/vi';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import classes from './Captcha.module.css';
import { CaptchaError, type CaptchaHandle } from './types';

// The CSP-friendly build (no inline styles or blob workers): its proof-of-work worker is a
// file of ours, registered for the one algorithm the server issues (PBKDF2/SHA-256).
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

export interface AltchaCaptchaProps {
  challengeUrl: string;
  language: string;
  /** 'onload' solves at once (the sign-in retry); 'onfocus' when the form is first used. */
  auto: 'onload' | 'onfocus';
  /** Told when an answer is ready (and when it is lost: expiry, reset). */
  onChange?(payload: string | null): void;
  ref?: Ref<CaptchaHandle>;
}

interface StateDetail {
  state?: string;
  payload?: string | null;
}

/** The payload of the verification under way, or null when it ends any other way. */
function settled(element: HTMLElement): Promise<string | null> {
  return new Promise((resolve) => {
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateDetail>).detail ?? {};
      if (state === 'verifying') return;
      element.removeEventListener('statechange', onState);
      resolve(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', onState);
  });
}

/** The ALTCHA widget (self-hosted proof of work): a checkbox that solves in the browser. */
export default function AltchaCaptcha({ challengeUrl, language, auto, onChange, ref }: AltchaCaptchaProps) {
  const widget = useRef<HTMLElementTagNameMap['altcha-widget']>(null);
  const payload = useRef<string | null>(null);
  const notify = useRef(onChange);
  notify.current = onChange;

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const onState = (event: Event) => {
      const detail = (event as CustomEvent<StateDetail>).detail ?? {};
      payload.current = detail.state === 'verified' && detail.payload ? detail.payload : null;
      notify.current?.(payload.current);
    };
    element.addEventListener('statechange', onState);
    return () => element.removeEventListener('statechange', onState);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      async token() {
        const element = widget.current;
        if (!element) throw new CaptchaError('form.captcha.errors.executeFailed');
        const state = element.getState?.();
        if (payload.current && state === 'verified') return payload.current;
        // Already solving (auto start, a reset): wait for that run rather than start another.
        const answer = state === 'verifying' ? await settled(element) : ((await element.verify().catch(() => null))?.payload ?? null);
        if (!answer) throw new CaptchaError('form.captcha.errors.executeFailed');
        return answer;
      },
      reset() {
        const element = widget.current;
        payload.current = null;
        element?.reset();
        if (auto === 'onload') void element?.verify().catch(() => undefined);
      },
    }),
    [auto],
  );

  return (
    <div className={classes.altcha} data-testid="captcha">
      <altcha-widget ref={widget} challenge={challengeUrl} language={language} auto={auto} name="captcha" />
    </div>
  );
}
