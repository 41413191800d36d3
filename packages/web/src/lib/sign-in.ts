import { firstPaintRoutes, NEXT_PARAM, paths, safeNextPath, safeRedirect, type accountEndpoints } from '@portal/contracts';
import { call } from './api';
import { readEntryParam } from './entry-params';
import { rememberIdentifier } from './flow-storage';

/**
 * Where the browser goes after a sign-in: the `next` query (a path on this site, e.g. the
 * OAuth authorization that sent the visitor here), else the entry's REDIRECT_URL or
 * SERVICE_URL when it is on an allowed origin, else home. Never an open redirect.
 */
export function signInTarget(search: string, allowedOrigins: readonly string[], currentOrigin: string = location.origin): string {
  const next = safeNextPath(new URLSearchParams(search).get(NEXT_PARAM));
  if (next) return next;
  for (const name of ['REDIRECT_URL', 'SERVICE_URL'] as const) {
    const target = safeRedirect(readEntryParam(name, search), allowedOrigins, currentOrigin);
    if (target) return target;
  }
  return paths.home;
}

/**
 * After the server has set the session cookie (spec section 4): the last-active ping, then a
 * full reload at the target, so every part of the app starts again signed in.
 */
export async function completeSignIn(target: string, go: (url: string) => void = (url) => location.assign(url)): Promise<void> {
  await call<typeof accountEndpoints.lastActive>(firstPaintRoutes.lastActive, {}, { handle: 'all' }).catch(() => undefined);
  rememberIdentifier(null);
  go(target);
}
