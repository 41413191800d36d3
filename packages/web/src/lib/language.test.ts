import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE } from '@portal/contracts';
import { recordCookieWrites } from '../test/cookies';
import { deleteCookie, readCookie } from './cookies';
import { i18n, initI18n } from './i18n';
import { applyLanguage, chooseLanguage, followAccountLanguage, languageSources, resolveInitialLanguage } from './language';
import { peekSessionUser, setSessionUser, type SessionUser } from './session';

describe('resolveInitialLanguage: cookie, then language by IP, then English', () => {
  it('takes the lang cookie without asking the server', async () => {
    const byIp = vi.fn(async () => 'en');
    expect(await resolveInitialLanguage({ cookie: () => 'vi', byIp })).toBe('vi');
    expect(byIp).not.toHaveBeenCalled();
  });

  it('asks the server when there is no usable cookie', async () => {
    expect(await resolveInitialLanguage({ cookie: () => undefined, byIp: async () => 'vi' })).toBe('vi');
    expect(await resolveInitialLanguage({ cookie: () => 'fr', byIp: async () => 'vi' })).toBe('vi');
  });

  it("takes the server's guess embedded in the page without asking, after the cookie", async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const sources = languageSources('vi');
    expect(await resolveInitialLanguage({ ...sources, cookie: () => undefined })).toBe('vi');
    expect(await resolveInitialLanguage({ ...sources, cookie: () => 'en' })).toBe('en');
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('settles for English when the server fails, answers nonsense, or is slow', async () => {
    expect(await resolveInitialLanguage({ cookie: () => undefined, byIp: async () => Promise.reject(new Error('down')) })).toBe('en');
    expect(await resolveInitialLanguage({ cookie: () => undefined, byIp: async () => 'klingon' })).toBe('en');
    const slow = (signal: AbortSignal) =>
      new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => resolve('vi'), 1000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    expect(await resolveInitialLanguage({ cookie: () => undefined, byIp: slow, timeoutMs: 10 })).toBe('en');
  });
});

describe('chooseLanguage', () => {
  beforeEach(async () => {
    initI18n('en');
    await applyLanguage('en');
  });

  afterEach(() => {
    deleteCookie(LANG_COOKIE);
    setSessionUser(undefined);
  });

  it('switches the interface and remembers the choice for a week', async () => {
    setSessionUser(null);
    const save = vi.fn();
    const cookies = recordCookieWrites();
    await chooseLanguage('vi', save);
    cookies.restore();
    expect(i18n.language).toBe('vi');
    expect(i18n.t('errors.fallback')).toBe('Lỗi');
    expect(document.documentElement.lang).toBe('vi');
    expect(readCookie(LANG_COOKIE)).toBe('vi');
    expect(cookies.writes[0]).toContain(`max-age=${LANG_COOKIE_MAX_AGE}`);
    expect(save).not.toHaveBeenCalled();
  });

  it('saves it on the account when signed in: the user object plus both languages', async () => {
    setSessionUser({ full_name: 'Ada', email: 'ada@example.com', language: 'en', customer_language: 'en' });
    const save = vi.fn(async (user: SessionUser) => ({ ...user, updated: true }));
    await chooseLanguage('vi', save);
    expect(save).toHaveBeenCalledWith({ full_name: 'Ada', email: 'ada@example.com', language: 'vi', customer_language: 'vi' });
    expect(peekSessionUser()).toMatchObject({ language: 'vi', updated: true });
  });
});

describe("followAccountLanguage: the signed-in account's language", () => {
  beforeEach(async () => {
    initI18n('en');
    await applyLanguage('en');
  });

  afterEach(() => deleteCookie(LANG_COOKIE));

  it('is shown and remembered as the picker remembers a choice, when this browser made none', async () => {
    const cookies = recordCookieWrites();
    await followAccountLanguage({ language: 'vi' });
    cookies.restore();
    expect(i18n.language).toBe('vi');
    expect(document.documentElement.lang).toBe('vi');
    expect(readCookie(LANG_COOKIE)).toBe('vi');
    expect(cookies.writes[0]).toContain(`max-age=${LANG_COOKIE_MAX_AGE}`);
  });

  it("leaves this browser's own choice (the lang cookie) standing", async () => {
    await followAccountLanguage({ language: 'vi' }, () => 'en');
    expect(i18n.language).toBe('en');
  });

  it('ignores a language the interface does not have, or none', async () => {
    await followAccountLanguage({ language: 'fr' as 'en' });
    await followAccountLanguage({});
    expect(i18n.language).toBe('en');
    expect(readCookie(LANG_COOKIE)).toBeUndefined();
  });
});
