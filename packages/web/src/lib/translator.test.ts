import { describe, expect, it } from 'vitest';
import { Translator } from './translator';

function translator() {
  const i18n = new Translator();
  void i18n.init({
    resources: { en: { translation: { a: { hello: 'Hello, {name}', only: 'English only', seats_one: '{count} seat', seats_other: '{count} seats' } } } },
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en', 'vi'],
  });
  i18n.addResourceBundle('vi', 'translation', { a: { hello: 'Xin chào, {name}', seats_other: '{count} chỗ' } }, true, true);
  return i18n;
}

describe('translator', () => {
  it('fills placeholders, and keeps one whose value is not given', () => {
    const i18n = translator();
    expect(i18n.t('a.hello', { name: 'Ada' })).toBe('Hello, Ada');
    expect(i18n.t('a.hello')).toBe('Hello, {name}');
  });

  it('falls back to English, then to defaultValue, then to the key', async () => {
    const i18n = translator();
    await i18n.changeLanguage('vi');
    expect(i18n.t('a.hello', { name: 'Ada' })).toBe('Xin chào, Ada');
    expect(i18n.t('a.only')).toBe('English only');
    expect(i18n.t('a.missing', { defaultValue: 'Said so' })).toBe('Said so');
    expect(i18n.t('a.missing')).toBe('a.missing');
    expect(i18n.exists('a.only')).toBe(true);
    expect(i18n.exists('a.missing')).toBe(false);
  });

  it('counts by each language’s plural rules', async () => {
    const i18n = translator();
    expect([1, 2].map((count) => i18n.t('a.seats', { count }))).toEqual(['1 seat', '2 seats']);
    await i18n.changeLanguage('vi');
    expect([1, 2].map((count) => i18n.t('a.seats', { count }))).toEqual(['1 chỗ', '2 chỗ']);
  });

  it('merges a later part into what is loaded, and tells of a language change', async () => {
    const i18n = translator();
    i18n.addResourceBundle('en', 'translation', { a: { later: 'Later' } }, true, true);
    expect(i18n.t('a.later')).toBe('Later');
    expect(i18n.t('a.only')).toBe('English only');
    const heard: string[] = [];
    i18n.on('languageChanged', (language) => heard.push(language));
    await i18n.changeLanguage('vi');
    expect([heard, i18n.language, i18n.resolvedLanguage]).toEqual([['vi'], 'vi', 'vi']);
    await i18n.changeLanguage('fr');
    expect(i18n.resolvedLanguage).toBe('en');
  });
});
