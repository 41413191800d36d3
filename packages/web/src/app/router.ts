import type { RouteObject } from 'react-router';
import { currentUser as sessionUser, peekSessionUser, type SessionUser } from '../lib/session';
import { authGuardSendsAway } from './guards/auth-guard';
import type { Guard } from './guards/middleware';
import { createNavigationResolver, type ResolveNavigation } from './guards/resolve-navigation';
import { routeMeta } from './guards/route-meta';
import { createRoutes } from './routes';

export interface AppNavigationOptions {
  currentUser?: () => Promise<SessionUser | null>;
  registry?: Readonly<Record<string, Guard>>;
  /** Another route table (tests); the app's own by default. */
  routes?: RouteObject[];
}

/**
 * The app's navigation: the route table, what resolves each navigation before its page shows
 * (RootRoute), and a way for code outside React (API client, sign-out) to move the app.
 * The router itself is react-router's declarative one (<BrowserRouter>): its data router
 * (loaders, fetchers, navigation state) cost ~13 KB Brotli of the sign-in page.
 */
export interface AppNavigation {
  routes: RouteObject[];
  resolve: ResolveNavigation;
  /** Moves the app to `to`; before RootRoute has mounted, it goes there once it does. */
  navigate(to: string): void;
  /** Calls `listener` after each page has shown (link prefetch). */
  subscribe(listener: () => void): () => void;
  /** RootRoute's side: how to navigate, and word that a page has shown. */
  connect(navigate: (to: string) => void): () => void;
  pageShown(): void;
}

export function createAppNavigation({ currentUser = sessionUser, registry, routes = createRoutes() }: AppNavigationOptions = {}): AppNavigation {
  const listeners = new Set<() => void>();
  let navigateNow: ((to: string) => void) | undefined;
  let waiting: string | undefined;
  return {
    routes,
    resolve: createNavigationResolver({ routes, currentUser, registry }),
    navigate(to) {
      if (navigateNow) navigateNow(to);
      else waiting = to;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connect(navigate) {
      navigateNow = navigate;
      if (waiting !== undefined) navigate(waiting);
      waiting = undefined;
      return () => {
        if (navigateNow === navigate) navigateNow = undefined;
      };
    },
    pageShown() {
      for (const listener of listeners) listener();
    },
  };
}

/** The app's route table (guards' tests match against it). */
export function createAppRoutes(): RouteObject[] {
  return createRoutes();
}

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
