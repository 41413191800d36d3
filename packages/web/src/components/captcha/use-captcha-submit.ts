import { useRef, useState } from 'react';
import type { CaptchaHandle } from './types';

/**
 * The state of a form sent with a captcha answer (sign-up, recovery): its captcha, whether a
 * submit is running, and the last submit's failure and captcha failure. `start()` begins a
 * submit: pending, both failures cleared.
 */
export function useCaptchaSubmit<Failure, CaptchaFailure>() {
  const captcha = useRef<CaptchaHandle>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [captchaFailure, setCaptchaFailure] = useState<CaptchaFailure | null>(null);
  const start = () => {
    setPending(true);
    setFailure(null);
    setCaptchaFailure(null);
  };
  return { captcha, pending, setPending, failure, setFailure, captchaFailure, setCaptchaFailure, start };
}
