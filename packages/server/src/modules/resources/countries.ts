import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { Country } from '@portal/contracts';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));
countries.registerLocale(require('i18n-iso-countries/langs/vi.json'));

/** Every ISO 3166-1 country with its English and Vietnamese names, sorted by English name. Built once. */
export const countryList: Country[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, en]) => ({ code, name: { en, vi: countries.getName(code, 'vi', { select: 'official' }) ?? en } }))
  .sort((a, b) => a.name.en.localeCompare(b.name.en));
