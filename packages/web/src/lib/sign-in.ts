import { firstPaintRoutes, NEXT_PARAM, paths, safeNextPath, safeRedirect, type accountEndpoints } from '@portal/contracts';
import { call } from './api';
import { setBusy } from './app-state';
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

/** A target that opens an app rather than a page (a custom scheme such as `locker://`). */
export function isAppLink(target: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https';
}

/**
 * After the server has set the session cookie (the spec's state rules): the full-screen busy loader
 * (the hand-off can take a moment; when the target opens the desktop app, the loader offers
 * its link in case the browser does not follow), the last-active ping, then a full reload at
 * the target, so every part of the app starts again signed in.
 */
export async function completeSignIn(target: string, go: (url: string) => void = (url) => location.assign(url)): Promise<void> {
  setBusy(true, isAppLink(target) ? { pendingDesktopApp: target } : {});
  await call<typeof accountEndpoints.lastActive>(firstPaintRoutes.lastActive, {}, { handle: 'all' }).catch(() => undefined);
  rememberIdentifier(null);
  go(target);
}
