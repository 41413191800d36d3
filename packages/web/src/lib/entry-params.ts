import { ENTRY_COOKIE_MAX_AGE, entryParams, type EntryParam } from '@portal/contracts';
import { readCookie, writeCookie } from './cookies';

/**
 * Entry query values (service scope, redirect and OAuth client values...) arrive on the
 * first URL only; the sign-in flow then moves through several pages. They are kept in
 * cookies named like the parameter for ENTRY_COOKIE_MAX_AGE (300 s) so they survive it.
 */
export function storeEntryParams(search: string): void {
  const params = new URLSearchParams(search);
  for (const name of entryParams) {
    const value = params.get(name);
    if (value) writeCookie(name, value, { maxAge: ENTRY_COOKIE_MAX_AGE });
  }
}

/** The entry value: from the current URL when present, else from its cookie. */
export function readEntryParam(name: EntryParam, search: string = location.search): string | undefined {
  return new URLSearchParams(search).get(name) || readCookie(name) || undefined;
}
