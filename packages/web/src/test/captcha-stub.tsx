import { useImperativeHandle, type Ref } from 'react';
import type { CaptchaHandle } from '../components/captcha/types';

/**
 * Stands in for components/captcha/CaptchaField in component tests (the ALTCHA widget needs
 * Web Crypto workers): answers `token()` with 'captcha-answer' and counts resets.
 */
export const captchaStub = { resets: 0, tokens: 0 };

export function CaptchaField({ ref }: { ref?: Ref<CaptchaHandle> }) {
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
