import { createBrowserRouter, type RouteObject } from 'react-router';
import { currentUser as sessionUser, peekSessionUser, type SessionUser } from '../lib/session';
import { authGuardSendsAway } from './guards/auth-guard';
import { createGuardLoader } from './guards/guard-loader';
import { routeMeta } from './guards/route-meta';
import type { Guard } from './guards/middleware';
import { createRoutes } from './routes';

export interface AppRoutesOptions {
  currentUser?: () => Promise<SessionUser | null>;
  registry?: Readonly<Record<string, Guard>>;
}

/** The route table with its guard loader wired in (tests pass their own session source). */
export function createAppRoutes({ currentUser = sessionUser, registry }: AppRoutesOptions = {}): RouteObject[] {
  let routes: RouteObject[] = [];
  const guardLoader = createGuardLoader({ routes: () => routes, currentUser, registry });
  routes = createRoutes(guardLoader);
  return routes;
}

export function createAppRouter() {
  return createBrowserRouter(createAppRoutes());
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Whether the auth guard (the one guard that depends on who is visiting) would send this
 * visitor away from a page, by the session as known now: link prefetch skips such pages.
 */
export function guardsSendAway(matched: RouteObject[], url: URL): boolean {
  const user = peekSessionUser();
  return authGuardSendsAway(
    matched.map((route) => routeMeta(route.handle)),
    url,
    user === undefined ? undefined : user !== null,
  );
}
