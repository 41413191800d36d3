import { useImperativeHandle, type Ref } from 'react';
import type { CaptchaHandle } from '../components/captcha/types';

/**
 * Stands in for components/captcha/CaptchaField in component tests (the ALTCHA widget needs
 * Web Crypto workers): answers `token()` with 'captcha-answer' and counts resets. `solve()`
 * plays the widget reaching Verified (its onChange with an answer).
 */
export const captchaStub = { resets: 0, tokens: 0, solve: () => undefined as void };

export function CaptchaField({ onChange, ref }: { onChange?(payload: string | null): void; ref?: Ref<CaptchaHandle> }) {
  captchaStub.solve = () => onChange?.('captcha-answer');
  useImperativeHandle(ref, () => ({
    token: async () => {
      captchaStub.tokens += 1;
      return 'captcha-answer';
    },
    reset: () => {
      captchaStub.resets += 1;
    },
  }));
  return <div data-testid="captcha" />;
}
