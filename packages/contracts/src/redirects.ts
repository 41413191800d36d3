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
