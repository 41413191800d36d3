import { describe, expect, it } from 'vitest';
import accountEn from './parts/account.en';
import errorsEn from './parts/errors.en';
import pagesEn from './parts/pages.en';
import en from './parts/public.en';
import securityEn from './parts/security.en';
import securityVi from './parts/security.vi';

function texts(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') found.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) for (const [path, text] of texts(child, prefix ? `${prefix}.${key}` : key)) found.set(path, text);
  }
  return found;
}
/** Every text of a part (its files) by its path. */
const part = (files: unknown[]) => new Map(files.flatMap((file) => [...texts(file)]));
const placeholders = (text: string | undefined) => [...(text ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the security catalogue', () => {
  it('has the same keys and placeholders in Vietnamese as in English, and no empty text', () => {
    const reference = part(securityEn);
    const translated = part(securityVi);
    expect([...translated.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [path, text] of reference) expect([path, placeholders(translated.get(path))]).toEqual([path, placeholders(text)]);
    expect([...reference, ...translated].filter(([, text]) => !text.trim())).toEqual([]);
  });

  it('holds no text another part holds (a later part would silently replace it)', () => {
    const others = new Set([...part(en).keys(), ...part(pagesEn).keys(), ...part(errorsEn).keys(), ...part(accountEn).keys()]);
    expect([...part(securityEn).keys()].filter((path) => others.has(path))).toEqual([]);
  });

  it("keeps the security page's words as the product spec gives them (passkeys, recovery codes, devices)", () => {
    const all = [...part(securityEn).values()];
    for (const words of ['Passkeys authentication failed', 'Failed to log in/sign up with passkeys', 'I have saved my recovery codes', 'Sign out all other devices', 'This device']) {
      expect(all).toContain(words);
    }
    expect(all.some((text) => text.toLowerCase().includes('passkeys not supported on this browser'))).toBe(true);
  });
});
