import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadAfterChunkError } from './chunk-reload';

function memoryStorage() {
  const values = new Map<string, string>();
  return { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => void values.set(key, value) };
}

describe('reloadAfterChunkError', () => {
  it('reloads at most once per 60 seconds, remembering across reloads in storage', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    let now = 1_000_000;
    const attempt = () => reloadAfterChunkError({ storage, reload, now: () => now });

    expect(attempt()).toBe(true);
    now += 59_999;
    expect(attempt()).toBe(false);
    now += 1;
    expect(attempt()).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload when there is nowhere to remember it (no loop risk)', () => {
    const reload = vi.fn();
    expect(reloadAfterChunkError({ storage: null, reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('ignores a garbled stored time', () => {
    const storage = memoryStorage();
    storage.setItem('portal:chunk-reload-at', 'yesterday');
    const reload = vi.fn();
    expect(reloadAfterChunkError({ storage, reload, now: () => 5 })).toBe(true);
  });

  it('uses sessionStorage by default', () => {
    sessionStorage.clear();
    const reload = vi.fn();
    expect(reloadAfterChunkError({ reload })).toBe(true);
    expect(reloadAfterChunkError({ reload })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('isChunkLoadError', () => {
  it.each([
    'Failed to fetch dynamically imported module: https://x/assets/AccountPage-1.js',
    'error loading dynamically imported module',
    'Importing a module script failed.',
    'Unable to preload CSS for /assets/ShellLayout-2.css',
  ])('recognises %s', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true);
  });

  it('leaves other errors alone', () => {
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
