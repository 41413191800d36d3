import { describe, expect, it } from 'vitest';
import { errorCatalogue, serviceCatalogue } from '@portal/contracts';
import accountEn from './parts/account.en';
import accountVi from './parts/account.vi';
import adminEn from './parts/admin.en';
import adminVi from './parts/admin.vi';
import errorsEn from './parts/errors.en';
import errorsVi from './parts/errors.vi';
import pagesEn from './parts/pages.en';
import pagesVi from './parts/pages.vi';
import en from './parts/public.en';
import vi from './parts/public.vi';
import securityEn from './parts/security.en';
import securityVi from './parts/security.vi';

/** The services' intro slides (components/IntroSlider), one file per service and language. */
const slideFiles = import.meta.glob<unknown>('./slides/*.json', { eager: true, import: 'default' });
/** The catalogue's files, one per capability (or app-wide group) and language. */
const catalogueFiles = import.meta.glob<Record<string, unknown>>(['./*.json', '!./glossary.vi.json'], { eager: true, import: 'default' });
const englishFiles = Object.keys(catalogueFiles).filter((file) => file.endsWith('.en.json'));

/** Every text of a catalogue by its path. */
function texts(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') found.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of texts(child, prefix ? `${prefix}.${key}` : key)) found.set(path, text);
    }
  }
  return found;
}

const placeholders = (text: string | undefined) => [...(text ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe.each(englishFiles.map((file) => [file, catalogueFiles[file], catalogueFiles[file.replace(/\.en\.json$/, '.vi.json')]]))('the catalogue file %s', (_file, english, vietnamese) => {
  it('has the same keys and placeholders in Vietnamese as in English', () => {
    const reference = texts(english);
    const translated = texts(vietnamese);
    expect([...translated.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [path, text] of reference) expect([path, placeholders(translated.get(path))]).toEqual([path, placeholders(text)]);
  });

  it('has no empty text', () => {
    const empty = [...texts(english), ...texts(vietnamese)].filter(([, text]) => !text.trim());
    expect(empty).toEqual([]);
  });
});

/** The parts as i18next holds them once all are loaded (deep merge, lib/i18n.ts). */
function merged(...parts: unknown[]): Record<string, unknown> {
  const into: Record<string, unknown> = {};
  const merge = (target: Record<string, unknown>, source: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(source)) {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const child = (target[key] && typeof target[key] === 'object' ? target[key] : {}) as Record<string, unknown>;
        target[key] = child;
        merge(child, value as Record<string, unknown>);
      } else target[key] = value;
    }
  };
  for (const part of parts) merge(into, part as Record<string, unknown>);
  return into;
}

const allEn = merged(...en, ...pagesEn, ...errorsEn, ...accountEn);
const allVi = merged(...vi, ...pagesVi, ...errorsVi, ...accountVi);
const partsEn = { public: en, pages: pagesEn, errors: errorsEn, account: accountEn, security: securityEn, admin: adminEn };
const partsVi = { public: vi, pages: pagesVi, errors: errorsVi, account: accountVi, security: securityVi, admin: adminVi };

describe('the parts', () => {
  it('never hold the same text twice (a later part would silently replace an earlier one)', () => {
    const seen = new Map<string, string>();
    for (const [file, catalogue] of Object.entries(catalogueFiles)) {
      if (!file.endsWith('.en.json')) continue;
      for (const path of texts(catalogue).keys()) {
        expect(seen.get(path), `${path} is in ${seen.get(path)} and ${file}`).toBeUndefined();
        seen.set(path, file);
      }
    }
  });

  it('each take every catalogue file once, in both languages (a file in no part never loads)', () => {
    for (const [parts, language] of [[partsEn, 'en'], [partsVi, 'vi']] as const) {
      const inParts = Object.values(parts).flat();
      const files = Object.entries(catalogueFiles).filter(([file]) => file.endsWith(`.${language}.json`));
      expect(inParts.length).toBe(files.length);
      for (const [file, catalogue] of files) expect([file, inParts.filter((entry) => entry === catalogue).length]).toEqual([file, 1]);
    }
  });
});

describe('coverage of the contracts', () => {
  const text = (catalogue: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], catalogue);

  it('translates every error code of the catalogue, in the same words in English', () => {
    for (const [code, { message }] of Object.entries(errorCatalogue)) {
      expect([code, text(allEn, `errors.${code}`)]).toEqual([code, message]);
      expect([code, typeof text(allVi, `errors.${code}`)]).toEqual([code, 'string']);
    }
  });

  it('has the HTTP statuses of the error policy in the part that ships with the app', () => {
    for (const code of ['validation_error', 'not_found', 'unauthorized', 'forbidden', 'rate_limited', 'something_went_wrong', 'request_failed']) {
      expect(typeof text(merged(...en), `errors.${code}`)).toBe('string');
      expect(typeof text(merged(...vi), `errors.${code}`)).toBe('string');
    }
  });

  it('gives every service a blurb and as many slides as the scope catalogue says', () => {
    for (const [key, entry] of Object.entries(serviceCatalogue)) {
      // The sign-up pages and /login/explore show it: the pages part, not the one the first screen ships with.
      for (const catalogue of [merged(...pagesEn), merged(...pagesVi)]) {
        expect(typeof text(catalogue, `app.scopes.${key}.blurb`)).toBe('string');
      }
      for (const language of ['en', 'vi']) {
        const slides = slideFiles[`./slides/${key}.${language}.json`] as { title: string; body: string }[] | undefined;
        expect([key, language, slides?.length]).toEqual([key, language, entry.slides]);
        for (const slide of slides ?? []) expect([slide.title.trim() !== '', slide.body.trim() !== '']).toEqual([true, true]);
      }
    }
  });
});
