import { afterEach, describe, expect, it } from 'vitest';
import { VISITED_COOKIE } from '@portal/contracts';
import { deleteCookie, readCookie } from './cookies';
import { markVisited } from './visit';

afterEach(() => deleteCookie(VISITED_COOKIE));

describe('the visited cookie (604800 s)', () => {
  it('is written on the first start and says "returning" on the next', () => {
    expect(readCookie(VISITED_COOKIE)).toBeUndefined();
    expect(markVisited(new Date('2026-11-23T10:00:00Z'))).toBe(false);
    expect(readCookie(VISITED_COOKIE)).toBe('2026-11-23');
    expect(markVisited(new Date('2026-11-24T10:00:00Z'))).toBe(true);
    expect(readCookie(VISITED_COOKIE)).toBe('2026-11-24');
  });

  it('lives 7 days: max-age=604800 on every write', () => {
    const writes: string[] = [];
    const original = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    // happy-dom keeps cookies per URL; what matters here is the attribute the app sends.
    Object.defineProperty(document, 'cookie', { configurable: true, get: () => '', set: (value: string) => writes.push(value) });
    try {
      markVisited();
    } finally {
      delete (document as unknown as Record<string, unknown>).cookie;
      if (original) Object.defineProperty(Document.prototype, 'cookie', original);
    }
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^visited=\d{4}-\d{2}-\d{2}; path=\/; SameSite=Lax; max-age=604800$/);
  });
});
