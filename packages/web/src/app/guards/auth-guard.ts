import { redirect } from 'react-router';
import { loginPathFor, NEXT_PARAM, paths, safeNextPath } from '@portal/contracts';
import type { Guard } from './guard';
import type { RouteMeta } from './route-meta';

/** What the auth guard asks of a visitor on `url`: to be signed out (`preventToUser`) or in (`requiresUser`). */
function authRules(matched: readonly RouteMeta[], url: URL): { preventToUser: boolean; requiresUser: boolean } {
  const reauthenticating = url.searchParams.get('prompt') === 'login' && safeNextPath(url.searchParams.get(NEXT_PARAM)) !== null;
  return {
    preventToUser: matched.some((meta) => meta.preventToUser) && url.pathname !== paths.loginExplore && !reauthenticating,
    requiresUser: matched.some((meta) => meta.requiresUser),
  };
}

/**
 * Signed-in users are kept off the sign-in pages (except /login/explore): they go where
 * `next` says, or home with the query kept (OAuth values must survive). Signed-out users
 * opening a signed-in page go to sign-in, which brings them back through `next`. An app that
 * asks for a fresh sign-in (OIDC `prompt=login`, `max_age`) sends a signed-in person to
 * `/login?next=...&prompt=login`: they may sign in again.
 */
export const authGuard: Guard = async ({ url, matched, currentUser }) => {
  const { preventToUser, requiresUser } = authRules(matched, url);
  if (!preventToUser && !requiresUser) return undefined;

  const user = await currentUser();
  if (user && preventToUser) {
    return redirect(safeNextPath(url.searchParams.get(NEXT_PARAM)) ?? `${paths.home}${url.search}`);
  }
  if (!user && requiresUser) return redirect(loginPathFor(`${url.pathname}${url.search}`));
  return undefined;
};

/**
 * Whether the auth guard would send a visitor away from `url`: a signed-out one from a
 * signed-in page, a signed-in one from the sign-in pages. `signedIn` undefined (not known
 * yet): it would not, as far as anyone can tell.
 */
export function authGuardSendsAway(matched: readonly RouteMeta[], url: URL, signedIn: boolean | undefined): boolean {
  if (signedIn === undefined) return false;
  const { preventToUser, requiresUser } = authRules(matched, url);
  return signedIn ? preventToUser : requiresUser;
}
