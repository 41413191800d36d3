/** Minimal document.cookie access: the app's cookies are all plain strings on path '/'. */

export interface CookieOptions {
  /** Seconds until expiry; wins over `expires`. */
  maxAge?: number;
  expires?: Date;
}

export function readCookie(name: string): string | undefined {
  // The first screen rendered on the server (first-screen.tsx) is for a visitor without entry cookies.
  if (typeof document === 'undefined') return undefined;
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

let sharedDomain: string | undefined;

/** COOKIE_DOMAIN from the runtime config: cookies the server wrote for it are deleted for it too. */
export function setCookieDomain(domain: string | undefined): void {
  sharedDomain = domain || undefined;
}

/**
 * Deletes `name` both as a host-only cookie and, with a configured cookie domain, as the
 * domain cookie the server wrote (a cookie with a Domain attribute survives a deletion
 * that does not name it).
 */
export function deleteCookie(name: string): void {
  for (const deletion of cookieDeletions(name)) document.cookie = deletion;
}

/** The `document.cookie` writes that delete `name` (exported for tests). */
export function cookieDeletions(name: string): string[] {
  // Both forms: browsers honour max-age=0, some DOM implementations only a past expiry.
  const expired = `${encodeURIComponent(name)}=; path=/; max-age=0; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  return sharedDomain ? [expired, `${expired}; domain=${sharedDomain}`] : [expired];
}
