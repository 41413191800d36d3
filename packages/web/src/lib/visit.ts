import { VISITED_COOKIE, VISITED_COOKIE_MAX_AGE } from '@portal/contracts';
import { readCookie, writeCookie } from './cookies';

/**
 * The visited cookie (the spec's constants: 604800 s): written on every start of the app, so it
 * says "this browser was here within the last 7 days". Answers whether it was already there.
 */
export function markVisited(now: Date = new Date()): boolean {
  const returning = readCookie(VISITED_COOKIE) !== undefined;
  writeCookie(VISITED_COOKIE, now.toISOString().slice(0, 10), { maxAge: VISITED_COOKIE_MAX_AGE });
  return returning;
}
