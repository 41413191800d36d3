import { describe, expect, it } from 'vitest';
import { errorCatalogue, serviceCatalogue } from '@portal/contracts';
import accountEn from './account.en.json';
import accountVi from './account.vi.json';
import en from './en.json';
import vi from './vi.json';

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

describe.each([
  ['public', en, vi],
  ['account', accountEn, accountVi],
])('the %s catalogue', (_part, english, vietnamese) => {
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

describe('coverage of the contracts', () => {
  const text = (catalogue: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], catalogue);

  it('translates every error code of the catalogue, in the same words in English', () => {
    for (const [code, { message }] of Object.entries(errorCatalogue)) {
      expect(text(en, `errors.${code}`)).toBe(message);
      expect(typeof text(vi, `errors.${code}`)).toBe('string');
    }
  });

  it('gives every service a blurb and as many slides as the scope catalogue says', () => {
    for (const [key, entry] of Object.entries(serviceCatalogue)) {
      for (const catalogue of [en, vi]) {
        expect(typeof text(catalogue, `scopes.${key}.blurb`)).toBe('string');
        expect(text(catalogue, `scopes.${key}.slides`)).toHaveLength(entry.slides);
      }
    }
  });
});
