import { afterEach, describe, expect, it, vi } from 'vitest';
import { executeRecaptcha, loadRecaptcha, RECAPTCHA_SCRIPTS } from './recaptcha';
import { CaptchaError } from './types';

/** Intercepts the script the adapter adds, then loads or fails it the way a browser would. */
function watchScripts() {
  const added: HTMLScriptElement[] = [];
  const append = vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
    for (const node of nodes) if (node instanceof HTMLScriptElement) added.push(node);
  });
  return { added, restore: () => append.mockRestore() };
}

const reasonOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof CaptchaError ? error.key : error));

afterEach(() => {
  delete window.grecaptcha;
  vi.restoreAllMocks();
});

describe('the reCAPTCHA client (the spec validation rules and error catalogue)', () => {
  it('fails without a site key, then without a version', async () => {
    expect(await reasonOf(loadRecaptcha({ provider: 'recaptcha', version: 'standard' }))).toBe('form.captcha.errors.noKey');
    expect(await reasonOf(loadRecaptcha({ provider: 'recaptcha', siteKey: 'key' }))).toBe('form.captcha.errors.noVersion');
  });

  it.each(['standard', 'enterprise'] as const)('loads the %s script with the site key', async (version) => {
    const scripts = watchScripts();
    const loading = loadRecaptcha({ provider: 'recaptcha', siteKey: `key-${version}`, version });
    const script = scripts.added[0]!;
    expect(script.src).toBe(`${RECAPTCHA_SCRIPTS[version]}?render=key-${version}`);
    const client = { ready: (callback: () => void) => callback(), execute: vi.fn(async () => 'token-1') };
    window.grecaptcha = version === 'enterprise' ? ({ enterprise: client } as never) : (client as never);
    script.onload?.(new Event('load'));
    await expect(loading).resolves.toBe(client);
    expect(await executeRecaptcha({ provider: 'recaptcha', siteKey: `key-${version}`, version }, 'login')).toBe('token-1');
    expect(client.execute).toHaveBeenCalledWith(`key-${version}`, { action: 'login' });
  });

  it('fails to load when the script errors (and tries again next time)', async () => {
    const scripts = watchScripts();
    const settings = { provider: 'recaptcha', siteKey: 'key-broken', version: 'standard' } as const;
    const first = loadRecaptcha(settings);
    scripts.added[0]!.onerror?.(new Event('error'));
    expect(await reasonOf(first)).toBe('form.captcha.errors.loadFailed');
    void loadRecaptcha(settings).catch(() => undefined);
    expect(scripts.added).toHaveLength(2);
  });

  it('fails to execute when the client throws', async () => {
    const scripts = watchScripts();
    const settings = { provider: 'recaptcha', siteKey: 'key-exec', version: 'standard' } as const;
    const executing = executeRecaptcha(settings, 'signup');
    window.grecaptcha = { ready: (callback: () => void) => callback(), execute: async () => Promise.reject(new Error('boom')) } as never;
    scripts.added[0]!.onload?.(new Event('load'));
    expect(await reasonOf(executing)).toBe('form.captcha.errors.executeFailed');
  });
});
