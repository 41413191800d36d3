import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY_COOKIE_MAX_AGE, entryParams } from '@portal/contracts';
import { recordCookieWrites } from '../test/cookies';
import { deleteCookie, readCookie } from './cookies';
import { readEntryParam, storeEntryParams } from './entry-params';

afterEach(() => {
  for (const name of entryParams) deleteCookie(name);
});

describe('entry parameters', () => {
  it('stores the entry values present in the URL for 300 seconds', () => {
    const cookies = recordCookieWrites();
    storeEntryParams('?SERVICE_SCOPE=safechain&client_id=app%201&REDIRECT_URL=https%3A%2F%2Fapp.test%2Fdone&utm_source=ad&state=');
    cookies.restore();

    expect(readCookie('SERVICE_SCOPE')).toBe('safechain');
    expect(readCookie('client_id')).toBe('app 1');
    expect(readCookie('REDIRECT_URL')).toBe('https://app.test/done');
    // Not an entry parameter, and an empty value is not worth keeping.
    expect(readCookie('utm_source')).toBeUndefined();
    expect(readCookie('state')).toBeUndefined();
    expect(cookies.writes).toHaveLength(3);
    for (const write of cookies.writes) expect(write).toContain(`max-age=${ENTRY_COOKIE_MAX_AGE}`);
  });

  it('reads the URL first, then the cookie', () => {
    storeEntryParams('?SERVICE_SCOPE=secret');
    expect(readEntryParam('SERVICE_SCOPE', '')).toBe('secret');
    expect(readEntryParam('SERVICE_SCOPE', '?SERVICE_SCOPE=bugbounty')).toBe('bugbounty');
    expect(readEntryParam('INNER_SERVICE', '')).toBeUndefined();
  });
});
