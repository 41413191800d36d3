/**
 * Where a sign-in may send the browser: a same-site path, or an absolute http(s) URL on an
 * allowed origin. Anything else (other origins, `//host`, `javascript:`, backslash tricks)
 * gives null, so there is never an open redirect.
 */
export function safeRedirect(target: string | null | undefined, allowedOrigins: readonly string[], currentOrigin: string): string | null {
  if (!target || target.length > 2048) return null;
  const value = target.trim();
  // Control characters and backslashes: browsers "repair" them into other hosts.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(value)) return null;
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (url.origin === currentOrigin || allowedOrigins.includes(url.origin)) return url.toString();
  return null;
}

/**
 * A native app's private-use scheme (RFC 8252 section 7.1: a reversed domain name, so it has a
 * dot, e.g. `io.locker.desktop:/oauth/callback`), never http(s) or a browser's own scheme
 * (javascript:, data:, blob:, file:): where /callback-app may hand the browser to.
 */
export function isPrivateUseRedirect(target: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme.includes('.');
}

/**
 * Whether `target` is an answer to one of `registered` (an app's redirect URIs): the URI
 * itself with the provider's parameters after it, as the provider builds it. /callback-app
 * hands the browser only to such a target, never to another scheme someone put in a link.
 */
export function isRegisteredAppRedirect(target: string, registered: readonly string[]): boolean {
  return registered.some((uri) => {
    if (!isPrivateUseRedirect(uri) || !target.startsWith(uri)) return false;
    const rest = target.slice(uri.length);
    return rest === '' || rest.startsWith('#') || rest.startsWith(uri.includes('?') ? '&' : '?');
  });
}
