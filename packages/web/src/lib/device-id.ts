import { DEVICE_COOKIE, DEVICE_COOKIE_DEFAULT_DAYS, DEVICE_EXPIRY_HEADER, DEVICE_ID_HEADER } from '@portal/contracts';
import { readCookie, writeCookie } from './cookies';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The device id to send with every request, if the server has issued one. */
export function currentDeviceId(): string | undefined {
  return readCookie(DEVICE_COOKIE) || undefined;
}

/**
 * When the server's expiry header is absent, unreadable or already past, the cookie lives
 * the spec's default 30 days. The header is unix seconds or an ISO date; a number too large
 * to be seconds is taken as milliseconds, a cheap guard against a server-side unit slip.
 */
export function deviceExpiry(header: string | null, now: number = Date.now()): Date {
  const fallback = new Date(now + DEVICE_COOKIE_DEFAULT_DAYS * DAY_MS);
  if (!header) return fallback;
  const trimmed = header.trim();
  let time: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    const value = Number(trimmed);
    time = value > 1e11 ? value : value * 1000;
  } else {
    time = Date.parse(trimmed);
  }
  return Number.isFinite(time) && time > now ? new Date(time) : fallback;
}

/** Keep the device id a response carries, until the expiry it names. */
export function rememberDeviceId(headers: Headers, now: number = Date.now()): void {
  const id = headers.get(DEVICE_ID_HEADER);
  if (!id) return;
  writeCookie(DEVICE_COOKIE, id, { expires: deviceExpiry(headers.get(DEVICE_EXPIRY_HEADER), now) });
}
