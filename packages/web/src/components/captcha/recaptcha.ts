import type { RuntimeConfig } from '@portal/contracts';
import { readCspNonce } from '../../lib/csp-nonce';
import { CaptchaError } from './types';

/**
 * The reCAPTCHA client (the spec's validation rules and call list): the script from Google in standard or
 * enterprise mode, score-based `execute` per request. It needs a site key and a version;
 * without either, or when the script cannot load or run, it fails with the spec's errors.
 */

export const RECAPTCHA_SCRIPTS = {
  standard: 'https://www.google.com/recaptcha/api.js',
  enterprise: 'https://www.google.com/recaptcha/enterprise.js',
} as const;

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha & { enterprise?: Grecaptcha };
  }
}

type RecaptchaSettings = RuntimeConfig['captcha'];

const loading = new Map<string, Promise<Grecaptcha>>();

function client(version: 'standard' | 'enterprise'): Grecaptcha | undefined {
  return version === 'enterprise' ? window.grecaptcha?.enterprise : window.grecaptcha;
}

/** Loads the script once per site key and version; resolves when the client is ready. */
export function loadRecaptcha(settings: RecaptchaSettings, doc: Document = document): Promise<Grecaptcha> {
  const { siteKey, version } = settings;
  if (!siteKey) return Promise.reject(new CaptchaError('form.captcha.errors.noKey'));
  if (!version) return Promise.reject(new CaptchaError('form.captcha.errors.noVersion'));
  const src = `${RECAPTCHA_SCRIPTS[version]}?render=${encodeURIComponent(siteKey)}`;
  let pending = loading.get(src);
  if (!pending) {
    pending = new Promise<Grecaptcha>((resolve, reject) => {
      const script = doc.createElement('script');
      script.src = src;
      script.async = true;
      const nonce = readCspNonce(doc);
      if (nonce) script.nonce = nonce;
      script.onload = () => {
        const loaded = client(version);
        if (!loaded) reject(new CaptchaError('form.captcha.errors.loadFailed'));
        else loaded.ready(() => resolve(loaded));
      };
      script.onerror = () => reject(new CaptchaError('form.captcha.errors.loadFailed'));
      doc.head.append(script);
    });
    // A failed load may succeed later (network back): forget it so the next call retries.
    pending.catch(() => loading.delete(src));
    loading.set(src, pending);
  }
  return pending;
}

/** A fresh token for `action` (reCAPTCHA tokens are single use and live two minutes). */
export async function executeRecaptcha(settings: RecaptchaSettings, action: string, doc: Document = document): Promise<string> {
  const recaptcha = await loadRecaptcha(settings, doc);
  try {
    const token = await recaptcha.execute(settings.siteKey!, { action });
    if (!token) throw new Error('empty token');
    return token;
  } catch {
    throw new CaptchaError('form.captcha.errors.executeFailed');
  }
}
