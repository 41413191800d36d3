/** Minimal document.cookie access: the app's cookies are all plain strings on path '/'. */

export interface CookieOptions {
  /** Seconds until expiry; wins over `expires`. */
  maxAge?: number;
  expires?: Date;
}

export function readCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const pair of document.cookie.split(';')) {
    const trimmed = pair.trim();
    if (trimmed.startsWith(prefix)) {
      try {
        return decodeURIComponent(trimmed.slice(prefix.length));
      } catch {
        // A cookie written by someone else with a bad escape: treat it as absent.
        return undefined;
      }
    }
  }
  return undefined;
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  const attributes = [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`, 'path=/', 'SameSite=Lax'];
  if (options.maxAge !== undefined) attributes.push(`max-age=${Math.max(0, Math.floor(options.maxAge))}`);
  else if (options.expires) attributes.push(`expires=${options.expires.toUTCString()}`);
  if (location.protocol === 'https:') attributes.push('Secure');
  document.cookie = attributes.join('; ');
}

export function deleteCookie(name: string): void {
  // Both forms: browsers honour max-age=0, some DOM implementations only a past expiry.
  document.cookie = `${encodeURIComponent(name)}=; path=/; max-age=0; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
