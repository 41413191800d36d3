import { isLanguage, type Language } from '@portal/contracts';
import type { DatabaseExecutor } from '../../db/client';
import type { RequestOrigin } from '../../platform/request-origin';
import { userQueries, type UserRow } from './queries';

export type UserService = ReturnType<typeof createUserService>;

/**
 * The owner of the users table: every module that reads or writes an account asks this.
 * Columns that only make sense with another module's own rows (the second factor with its
 * recovery codes, the avatar version with its picture, the deletion dates, the purge) are
 * written by that module's queries inside its own transaction; the row type is still this one.
 */
export function createUserService(db: DatabaseExecutor) {
  return userQueries(db);
}

/** The language of an account mail: the user's own, or the request's when they have none we speak. */
export function mailLanguage(user: Pick<UserRow, 'language'>, origin: Pick<RequestOrigin, 'lang'>): Language {
  return isLanguage(user.language) ? user.language : origin.lang;
}

/**
 * The language of a mail that answers a sign-in, sign-up or security request: the user's own
 * when they chose one other than the default (English), else the language of the page they
 * are on, since most accounts never changed the default.
 */
export function replyLanguage(user: Pick<UserRow, 'language'>, origin: Pick<RequestOrigin, 'lang'>): Language {
  return user.language !== 'en' && isLanguage(user.language) ? user.language : origin.lang;
}
