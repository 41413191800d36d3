import { lazy, Suspense, useEffect, useLayoutEffect, useState, useTransition, type CSSProperties } from 'react';
import { DATA_FETCH_MIN_DELAY_MS } from '@portal/contracts';
import { useLocation, useNavigate, useNavigationType, useRoutes, type Location } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FullPageLoader } from '../components/FullPageLoader';
import { appState, useAppState } from '../lib/app-state';
import { storeEntryParams } from '../lib/entry-params';
import { RouteErrorBoundary } from './errors/RouteErrorBoundary';
import { LazyRouteErrorPage } from './errors/LazyRouteErrorPage';
import { PageBeingLeft } from './PageBeingLeft';
import type { AppNavigation } from './router';
import classes from './RootRoute.module.css';

// Only where the server keeps mail in its dev outbox: never part of a production first paint.
const DevOutboxBanner = lazy(async () => ({ default: (await import('../components/DevOutboxBanner')).DevOutboxBanner }));

/**
 * A new page starts at its top; back and forward keep what the browser restores
 * (history.scrollRestoration stays 'auto'). react-router's ScrollRestoration, which also
 * keeps positions in sessionStorage, cost ~0.8 KB gzipped of the sign-in page's budget.
 */
function ScrollToTop({ pathname }: { pathname: string | undefined }) {
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
    // Only a new page scrolls, not the navigation's type changing alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  return null;
}

/** A location the navigation has resolved (guards passed, page code loaded), or how that failed. */
interface Shown {
  location: Location;
  error?: { value: unknown };
}

const pathOf = (location: Pick<Location, 'pathname' | 'search'>) => `${location.pathname}${location.search}`;

interface RootRouteProps {
  navigation: AppNavigation;
  /** The path main.tsx resolved before the first render (behind the first screen): shown at once. */
  resolved?: string;
}

/**
 * The root of the app under the router. Every navigation is resolved first (guards, which may
 * send the visitor elsewhere, then the page's code and text), while the page being left stays
 * on view, inert, under a progress bar; only then does the new page render, in one go. Keeps the app
 * state's current path, and stores entry values that arrive on in-app links too.
 */
export function RootRoute({ navigation, resolved }: RootRouteProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [shown, setShown] = useState<Shown | null>(() => (resolved === pathOf(location) ? { location } : null));
  const [rendering, startTransition] = useTransition();
  const dev = useAppState((state) => state.dev);
  const { t } = useTranslation();
  const element = useRoutes(navigation.routes, shown?.location ?? location);

  useEffect(() => navigation.connect((to) => void navigate(to)), [navigation, navigate]);

  useEffect(() => {
    if (shown?.location.key === location.key) return;
    let current = true;
    navigation.resolve(new URL(pathOf(location), document.baseURI)).then(
      (redirect) => {
        if (!current) return;
        if (redirect !== undefined) void navigate(redirect, { replace: true });
        else startTransition(() => setShown({ location }));
      },
      (error: unknown) => {
        if (current) setShown({ location, error: { value: error } });
      },
    );
    return () => {
      current = false;
    };
    // `shown` is what this effect sets: only a new location starts a navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location, navigation, navigate]);

  const shownPath = shown?.location.pathname;
  const shownSearch = shown?.location.search;
  useEffect(() => {
    if (shownPath === undefined) return;
    appState.set({ currentPath: shownPath });
    navigation.pageShown();
  }, [shownPath, navigation]);

  useEffect(() => {
    if (shownSearch !== undefined) storeEntryParams(shownSearch);
  }, [shownSearch]);

  // A page change resolving its guards or fetching its code: a bar along the top, once it has taken DATA_FETCH_MIN_DELAY_MS.
  const navigating = shown !== null && (shown.location.key !== location.key || rendering);
  return (
    <>
      {dev && (
        <Suspense fallback={null}>
          <DevOutboxBanner />
        </Suspense>
      )}
      {navigating && (
        <div
          className={classes.progress}
          role="progressbar"
          aria-label={t('app.busy.label')}
          aria-busy="true"
          data-testid="navigation-progress"
          style={{ '--portal-progress-delay': `${DATA_FETCH_MIN_DELAY_MS}ms` } as CSSProperties}
        />
      )}
      <PageBeingLeft pending={navigating}>
        {shown === null ? (
          <FullPageLoader />
        ) : shown.error ? (
          <LazyRouteErrorPage error={shown.error.value} />
        ) : (
          <RouteErrorBoundary resetKey={shown.location.key}>{element}</RouteErrorBoundary>
        )}
      </PageBeingLeft>
      <ScrollToTop pathname={shownPath} />
    </>
  );
}
