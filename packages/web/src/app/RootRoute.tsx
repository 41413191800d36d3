import { lazy, Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { appState, useAppState } from '../lib/app-state';
import { storeEntryParams } from '../lib/entry-params';

// Only where the server keeps mail in its dev outbox: never part of a production first paint.
const DevOutboxBanner = lazy(async () => ({ default: (await import('../components/DevOutboxBanner')).DevOutboxBanner }));

/**
 * The root of the route tree: keeps the app state's current path, and stores entry values
 * that arrive on in-app links too, not only on the first load.
 */
export function RootRoute() {
  const { pathname, search } = useLocation();
  const dev = useAppState((state) => state.dev);

  useEffect(() => {
    appState.set({ currentPath: pathname });
  }, [pathname]);

  useEffect(() => {
    storeEntryParams(search);
  }, [search]);

  return (
    <>
      {dev && (
        <Suspense fallback={null}>
          <DevOutboxBanner />
        </Suspense>
      )}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
