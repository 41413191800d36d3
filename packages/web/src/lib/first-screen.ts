/**
 * The sign-in page's first screen, rendered on the server (src/first-screen.tsx) and sent in
 * the shell of `/login`, is painted before the app's JavaScript arrives. The app renders its
 * live page in its place only once the router has settled (guards answered, the page's code
 * loaded), so the visitor sees the first screen, then the same page alive, never a loader
 * between them.
 */

/** What of a data router (createBrowserRouter) this needs. */
interface SettlingRouter {
  state: RouterState;
  subscribe(listener: (state: RouterState) => void): () => void;
}
interface RouterState {
  initialized: boolean;
  navigation: { state: string };
}

/** The attribute on the server-rendered first screen's wrapper. */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen';

export function hasFirstScreen(): boolean {
  return document.querySelector(`[${FIRST_SCREEN_ATTRIBUTE}]`) !== null;
}

/** Resolves once the router's first navigation (guards, lazy page, loaders, redirects) is done. */
export function routerSettled(router: SettlingRouter): Promise<void> {
  if (router.state.initialized && router.state.navigation.state === 'idle') return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (state.initialized && state.navigation.state === 'idle') {
        unsubscribe();
        resolve();
      }
    });
  });
}
