import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { DevOutboxBanner } from '../components/DevOutboxBanner';
import { appState } from '../lib/app-state';
import { storeEntryParams } from '../lib/entry-params';

/**
 * The root of the route tree: keeps the app state's current path, and stores entry values
 * that arrive on in-app links too, not only on the first load.
 */
export function RootRoute() {
  const { pathname, search } = useLocation();

  useEffect(() => {
    appState.set({ currentPath: pathname });
  }, [pathname]);

  useEffect(() => {
    storeEntryParams(search);
  }, [search]);

  return (
    <>
      <DevOutboxBanner />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
