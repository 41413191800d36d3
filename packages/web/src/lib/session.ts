import {
  DEFAULT_LANGUAGE,
  DISPLAY_NAME_COOKIE,
  firstPaintRoutes,
  isLanguage,
  paths,
  type accountEndpoints,
  type Language,
  type sessionEndpoints,
  type User,
} from '@portal/contracts';
import { ApiError, call } from './api';
import { deleteCookie } from './cookies';
import { createStore, useStore } from './store';

/**
 * Auth state (the spec's entities): whether someone is signed in, who, and their language. The
 * source of truth is `GET /sso/me`; a 401 there means signed out. Held in a small store
 * rather than the query cache so the sign-in pages do not load TanStack Query for it.
 */

/** The user object as `/sso/me` answers it; fields beyond the spec's are kept as they come. */
export type SessionUser = Partial<User> & { full_name: string; language?: string; customer_language?: string };

interface SessionState {
  /** undefined: not asked yet; null: signed out. */
  user: SessionUser | null | undefined;
}

const session = createStore<SessionState>({ user: undefined });
let pending: Promise<SessionUser | null> | null = null;

async function fetchCurrentUser(): Promise<SessionUser | null> {
  try {
    return await call<typeof accountEndpoints.me>(firstPaintRoutes.me, {}, { handle: [401] });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // An expired session: the display name shown elsewhere on the domain goes with it.
      deleteCookie(DISPLAY_NAME_COOKIE);
      return null;
    }
    throw error;
  }
}

/**
 * Tell the server the user is active (the spec's call list): once per page load, when the session
 * is first found signed in; a sign-in reloads the app, so it covers "after login" too.
 * Nobody waits for it and a failure changes nothing the user sees.
 */
function pingLastActive(): void {
  call<typeof accountEndpoints.lastActive>(firstPaintRoutes.lastActive, {}, { handle: 'all' }).catch(() => undefined);
}

let whenFoundSignedIn: (user: SessionUser) => Promise<void> = async () => {};

/**
 * What start-up does once the session is found signed in (show the account's language,
 * lib/language.ts, which imports this module). The guard waits for it, so the page paints
 * once, in that language; a failure there never blocks the page.
 */
export function setWhenFoundSignedIn(hook: (user: SessionUser) => Promise<void>): void {
  whenFoundSignedIn = hook;
}

/** The signed-in user, asked of the server once and then kept (for guards and loaders). */
export function currentUser(): Promise<SessionUser | null> {
  const { user } = session.get();
  if (user !== undefined) return Promise.resolve(user);
  pending ??= fetchCurrentUser()
    .then(async (fetched) => {
      session.set({ user: fetched });
      if (fetched) {
        pingLastActive();
        await whenFoundSignedIn(fetched).catch(() => undefined);
      }
      return fetched;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Replace the kept user (after PUT /sso/me answers with the saved object; undefined forgets it). */
export function setSessionUser(user: SessionUser | null | undefined): void {
  session.set({ user });
}

export function peekSessionUser(): SessionUser | null | undefined {
  return session.get().user;
}

export interface AuthState {
  loggedIn: boolean;
  user: SessionUser | null;
  /** The account's language; English when signed out or unset (the spec's entities). */
  language: Language;
}

export function useAuthState(): AuthState {
  const user = useStore(session, (state) => state.user) ?? null;
  return { loggedIn: user !== null, user, language: isLanguage(user?.language) ? user.language : DEFAULT_LANGUAGE };
}

let navigateAfterSignOut: (to: string) => void = () => {};

/** The router is created after this module; it registers how to leave a signed-in page. */
export function setSignOutNavigator(navigate: (to: string) => void): void {
  navigateAfterSignOut = navigate;
}

/**
 * Why the session ended: `expired` is the API's 401 (the session expired or was revoked
 * elsewhere), `signed-out` the user's own doing (sign-out, account deleted).
 */
export type SessionEnd = 'expired' | 'signed-out';

/**
 * Drop the session on this side: auth state and the display-name cookie (the spec's state rules).
 * A signed-in user whose session expired goes to the root (whose guard then asks for a
 * sign-in); one who signs out goes to /login/explore. Nobody moves who was not signed in.
 */
export function clearSession(reason: SessionEnd = 'signed-out'): void {
  if (forgetSession()) navigateAfterSignOut(reason === 'expired' ? paths.home : paths.loginExplore);
}

/**
 * clearSession without the move, for a page that knows where the person goes next (a sign-in
 * page, which the guard keeps signed-in users off). Whether someone was signed in.
 */
export function forgetSession(): boolean {
  const wasSignedIn = Boolean(session.get().user);
  session.set({ user: null });
  deleteCookie(DISPLAY_NAME_COOKIE);
  return wasSignedIn;
}

/** The sign-out button: tell the server, then forget the session whatever it answered. */
export async function logout(): Promise<void> {
  try {
    await call<typeof sessionEndpoints.logout>(firstPaintRoutes.logout, {}, { handle: 'all' });
  } finally {
    clearSession();
  }
}
