import { describe, expect, it } from 'vitest';
import accountEn from './account.en.json';
import en from './en.json';
import errorsEn from './errors.en.json';
import pagesEn from './pages.en.json';
import securityEn from './security.en.json';
import securityVi from './security.vi.json';

function texts(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') found.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) for (const [path, text] of texts(child, prefix ? `${prefix}.${key}` : key)) found.set(path, text);
  }
  return found;
}
const placeholders = (text: string | undefined) => [...(text ?? '').matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the security catalogue', () => {
  it('has the same keys and placeholders in Vietnamese as in English, and no empty text', () => {
    const reference = texts(securityEn);
    const translated = texts(securityVi);
    expect([...translated.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [path, text] of reference) expect([path, placeholders(translated.get(path))]).toEqual([path, placeholders(text)]);
    expect([...reference, ...translated].filter(([, text]) => !text.trim())).toEqual([]);
  });

  it('holds no text another part holds (a later part would silently replace it)', () => {
    const others = new Set([...texts(en).keys(), ...texts(pagesEn).keys(), ...texts(errorsEn).keys(), ...texts(accountEn).keys()]);
    expect([...texts(securityEn).keys()].filter((path) => others.has(path))).toEqual([]);
  });

  it("keeps the security page's words as the product spec gives them (passkeys, recovery codes, devices)", () => {
    const all = [...texts(securityEn).values()];
    for (const words of ['Passkeys authentication failed', 'Failed to log in/sign up with passkeys', 'I have saved my recovery codes', 'Sign out all other devices', 'This device']) {
      expect(all).toContain(words);
    }
    expect(all.some((text) => text.toLowerCase().includes('passkeys not supported on this browser'))).toBe(true);
  });
});
