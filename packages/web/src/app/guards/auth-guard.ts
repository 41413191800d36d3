import { redirect } from 'react-router';
import { loginPathFor, NEXT_PARAM, paths, safeNextPath } from '@portal/contracts';
import type { Guard } from './middleware';

/**
 * Signed-in users are kept off the sign-in pages (except /login/explore): they go where
 * `next` says, or home with the query kept (OAuth values must survive). Signed-out users
 * opening a signed-in page go to sign-in, which brings them back through `next`.
 */
export const authGuard: Guard = async ({ url, matched, currentUser }) => {
  const preventToUser = matched.some((meta) => meta.preventToUser) && url.pathname !== paths.loginExplore;
  const requiresUser = matched.some((meta) => meta.requiresUser);
  if (!preventToUser && !requiresUser) return undefined;

  const user = await currentUser();
  if (user && preventToUser) {
    return redirect(safeNextPath(url.searchParams.get(NEXT_PARAM)) ?? `${paths.home}${url.search}`);
  }
  if (!user && requiresUser) return redirect(loginPathFor(`${url.pathname}${url.search}`));
  return undefined;
};
