import { matchRoutes, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { SessionUser } from '../../lib/session';
import { runMiddleware, type Guard } from './middleware';
import { routeMeta } from './route-meta';

export interface GuardLoaderOptions {
  /** The route table (a getter: the loader is part of the table it reads). */
  routes(): RouteObject[];
  currentUser(): Promise<SessionUser | null>;
  registry?: Readonly<Record<string, Guard>>;
}

/**
 * The root route's loader: it re-runs on every navigation (see `shouldRevalidate` in the
 * route table) and runs the guards of whatever the new URL matches.
 */
export function createGuardLoader({ routes, currentUser, registry }: GuardLoaderOptions) {
  return async ({ request }: LoaderFunctionArgs): Promise<Response | null> => {
    const url = new URL(request.url);
    const matched = (matchRoutes(routes(), url.pathname) ?? []).map((match) => routeMeta(match.route.handle));
    return (await runMiddleware({ url, matched, currentUser }, registry)) ?? null;
  };
}
