import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirects';

const allowed = ['https://vault.example.com', 'http://localhost:8080'];
const here = 'http://localhost:8080';

describe('safeRedirect', () => {
  it('accepts local paths and allowed origins', () => {
    expect(safeRedirect('/security?tab=1', allowed, here)).toBe('/security?tab=1');
    expect(safeRedirect('https://vault.example.com/app', allowed, here)).toBe('https://vault.example.com/app');
    expect(safeRedirect('http://localhost:8080/x', allowed, here)).toBe('http://localhost:8080/x');
  });

  it('refuses everything else', () => {
    for (const bad of [
      '//evil.com',
      '/\\evil.com',
      'https://evil.com',
      'https://vault.example.com.evil.com/',
      'javascript:alert(1)',
      'data:text/html,x',
      'https://user:pw@vault.example.com/',
      ' \t//evil.com',
      '',
      null,
    ]) {
      expect(safeRedirect(bad, allowed, here)).toBeNull();
    }
  });

  it('never returns a URL on a foreign origin, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = safeRedirect(input, allowed, here);
        if (result === null || result.startsWith('/')) return true;
        return [...allowed, here].includes(new URL(result).origin);
      }),
    );
  });
});
