import { describe, expect, it } from 'vitest';
import { countryList } from './countries';
import { countryOfIp, languageFor } from '../../platform/geo';

describe('languageFor', () => {
  it('gives vi for a Vietnamese address whatever the browser says', () => {
    expect(countryOfIp('14.160.0.1')).toBe('VN');
    expect(languageFor('14.160.0.1', 'en-US,en;q=0.9')).toBe('vi');
    expect(languageFor('::ffff:14.160.0.1', undefined)).toBe('vi');
  });
  it('falls back to Accept-Language, by quality', () => {
    expect(languageFor('8.8.8.8', 'fr-FR, vi;q=0.8, en;q=0.5')).toBe('vi');
    expect(languageFor('127.0.0.1', 'en-GB')).toBe('en');
  });
  it('falls back to English for unknown languages and junk headers', () => {
    expect(languageFor('127.0.0.1', 'fr, de;q=0.5')).toBe('en');
    expect(languageFor('not-an-ip', ';;;q=,')).toBe('en');
    expect(languageFor('8.8.8.8', undefined)).toBe('en');
  });
});

describe('countryList', () => {
  it('is the full ISO list with names in both languages', () => {
    expect(countryList.length).toBeGreaterThanOrEqual(249);
    const vn = countryList.find((country) => country.code === 'VN');
    expect(vn?.name.vi).toBe('Việt Nam');
    expect(countryList.every((country) => country.name.en && country.name.vi)).toBe(true);
  });
});
