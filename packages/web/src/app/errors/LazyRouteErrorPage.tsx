import { lazy, Suspense, useEffect } from 'react';
import { FullPageLoader } from '../../components/FullPageLoader';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/chunk-reload';

/**
 * The error page's code (its view, the description of every kind of route error) loads when a
 * navigation fails, so a visit that never fails (the sign-in page's first visit) does not carry it.
 * A page chunk missing after a deploy reloads the page for the new build (throttled) here, in
 * the entry, so it works when the error page's own chunk is gone too.
 */
const RouteErrorPage = lazy(() =>
  import('./RouteErrorPage').then(
    ({ RouteErrorPage }) => ({ default: RouteErrorPage }),
    () => {
      reloadAfterChunkError();
      return { default: FullPageLoader };
    },
  ),
);

/** Where a navigation ends that failed (a guard's error, a page's chunk) or whose page threw. */
export function LazyRouteErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    if (isChunkLoadError(error)) reloadAfterChunkError();
  }, [error]);
  return (
    <Suspense fallback={<FullPageLoader />}>
      <RouteErrorPage error={error} />
    </Suspense>
  );
}
