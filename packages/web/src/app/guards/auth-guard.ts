import { redirect } from 'react-router';
import { loginPathFor, NEXT_PARAM, paths, safeNextPath } from '@portal/contracts';
import type { Guard } from './guard';

/**
 * Signed-in users are kept off the sign-in pages (except /login/explore): they go where
 * `next` says, or home with the query kept (OAuth values must survive). Signed-out users
 * opening a signed-in page go to sign-in, which brings them back through `next`. An app that
 * asks for a fresh sign-in (OIDC `prompt=login`, `max_age`) sends a signed-in person to
 * `/login?next=...&prompt=login`: they may sign in again.
 */
export const authGuard: Guard = async ({ url, matched, currentUser }) => {
  const reauthenticating = url.searchParams.get('prompt') === 'login' && safeNextPath(url.searchParams.get(NEXT_PARAM)) !== null;
  const preventToUser = matched.some((meta) => meta.preventToUser) && url.pathname !== paths.loginExplore && !reauthenticating;
  const requiresUser = matched.some((meta) => meta.requiresUser);
  if (!preventToUser && !requiresUser) return undefined;

  const user = await currentUser();
  if (user && preventToUser) {
    return redirect(safeNextPath(url.searchParams.get(NEXT_PARAM)) ?? `${paths.home}${url.search}`);
  }
  if (!user && requiresUser) return redirect(loginPathFor(`${url.pathname}${url.search}`));
  return undefined;
};
