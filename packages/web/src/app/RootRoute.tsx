import { lazy, Suspense, useEffect, useLayoutEffect, type CSSProperties } from 'react';
import { DATA_FETCH_MIN_DELAY_MS } from '@portal/contracts';
import { Outlet, useLocation, useNavigation, useNavigationType } from 'react-router';
import { useTranslation } from 'react-i18next';
import { appState, useAppState } from '../lib/app-state';
import classes from './RootRoute.module.css';
import { storeEntryParams } from '../lib/entry-params';

// Only where the server keeps mail in its dev outbox: never part of a production first paint.
const DevOutboxBanner = lazy(async () => ({ default: (await import('../components/DevOutboxBanner')).DevOutboxBanner }));

/**
 * A new page starts at its top; back and forward keep what the browser restores
 * (history.scrollRestoration stays 'auto'). react-router's ScrollRestoration, which also
 * keeps positions in sessionStorage, cost ~0.8 KB gzipped of the sign-in page's budget.
 */
function ScrollToTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}

/**
 * The root of the route tree: keeps the app state's current path, and stores entry values
 * that arrive on in-app links too, not only on the first load.
 */
export function RootRoute() {
  const { pathname, search } = useLocation();
  const dev = useAppState((state) => state.dev);
  const navigating = useNavigation().state !== 'idle';
  const { t } = useTranslation();

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
      {navigating && (
        // A page change fetching its code or data: a bar along the top, once it has taken DATA_FETCH_MIN_DELAY_MS.
        <div
          className={classes.progress}
          role="progressbar"
          aria-label={t('busy.label')}
          aria-busy="true"
          data-testid="navigation-progress"
          style={{ '--portal-progress-delay': `${DATA_FETCH_MIN_DELAY_MS}ms` } as CSSProperties}
        />
      )}
      <Outlet />
      <ScrollToTop />
    </>
  );
}
