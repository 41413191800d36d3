import { matchRoutes, type RouteObject } from 'react-router';
import type { SessionUser } from '../../lib/session';
import { routeHandle } from '../lazy-page';
import { runMiddleware, type Guard } from './middleware';

export interface NavigationResolverOptions {
  routes: RouteObject[];
  currentUser(): Promise<SessionUser | null>;
  registry?: Readonly<Record<string, Guard>>;
}

/** Where the guards send the visitor instead (a path with its query), or undefined: the page may show. */
export type ResolveNavigation = (url: URL) => Promise<string | undefined>;

/**
 * What every navigation goes through before its page shows (RootRoute): the guards of
 * whatever the URL matches, then the code and text of its lazy pages. A guard that sends the
 * visitor elsewhere stops it before any page code is fetched.
 */
export function createNavigationResolver({ routes, currentUser, registry }: NavigationResolverOptions): ResolveNavigation {
  return async (url) => {
    const matched = (matchRoutes(routes, url.pathname) ?? []).map((match) => routeHandle(match.route.handle));
    const redirect = await runMiddleware({ url, matched, currentUser }, registry);
    if (redirect) return redirect.headers.get('Location') ?? '/';
    await Promise.all(matched.flatMap((handle) => [handle.load?.(), handle.text?.()]));
    return undefined;
  };
}
