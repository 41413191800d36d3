/** The spec's business constants, in one place. */
export const AUTH_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;
export const AUTH_COOKIE_MAX_AGE = 2_592_000;
export const AUTH_COOKIE_PREFIX = 'auth';
/** The session cookie's name: the spec's prefix, with the __Host- guarantees left to deployment. */
export const AUTH_COOKIE_NAME = `${AUTH_COOKIE_PREFIX}_token`;
export const DISPLAY_NAME_COOKIE = 'auth_display_name';

export const DEVICE_ID_HEADER = 'device-id';
export const DEVICE_EXPIRY_HEADER = 'device-expired-time';
export const DEVICE_COOKIE = 'device_id';
export const DEVICE_COOKIE_DEFAULT_DAYS = 30;

export const ENTRY_COOKIE_MAX_AGE = 300;
/** Set on every start of the app: this browser has been here within the last 7 days. */
export const VISITED_COOKIE = 'visited';
export const VISITED_COOKIE_MAX_AGE = 604_800;
export const LANG_COOKIE = 'lang';
export const LANG_COOKIE_MAX_AGE = 604_800;
export const DEFAULT_LANGUAGE = 'en';
export const languages = ['en', 'vi'] as const;
export type Language = (typeof languages)[number];

export const TOAST_DURATION_MS = 8000;
export const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 60;
export const CHUNK_RELOAD_THROTTLE_MS = 60_000;
/** Loading indicators (route changes, the first route) show only once a fetch has taken this long: no flash for fast ones. */
export const DATA_FETCH_MIN_DELAY_MS = 200;
/** In-app links on the page have their route's code fetched when the browser is idle, at the latest this long after a page shows. */
export const LINK_PREFETCH_IDLE_MS = 2000;

export const RESET_LINK_TTL_SECONDS = 10 * 60;
export const VERIFICATION_CODE_LENGTH = 6;
export const ACCOUNT_DELETION_WINDOW_DAYS = 14;
export const TRIAL_DAYS = 14;
export const PRICES_USD_MONTHLY = { premium: 1.29, family: 5.99 } as const;

export const PASSWORD_MIN_LENGTH = 8;
/** No truncation happens anywhere; the cap only bounds hashing cost. */
export const PASSWORD_MAX_LENGTH = 128;

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'vi';
}
