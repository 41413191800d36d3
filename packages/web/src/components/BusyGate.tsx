import { lazy, Suspense } from 'react';
import { useAppState } from '../lib/app-state';

const loadBusyLoader = () => import('./BusyLoader');
const BusyLoaderView = lazy(async () => ({ default: (await loadBusyLoader()).BusyLoaderView }));

/** Fetch the loader's code ahead of need (the first interaction), so a hand-off shows it at once. */
export function prefetchBusyLoader(): void {
  void loadBusyLoader().catch(() => undefined);
}

/**
 * Full-screen loader shown while the app's busy flag is on (the spec's state rules: a sign-in
 * handing off, the desktop app opening, with its link). Its code is not on the first paint:
 * it loads when the flag first turns on, or on the visitor's first interaction.
 */
export function BusyGate() {
  const busy = useAppState((state) => state.busy);
  return busy ? (
    <Suspense fallback={null}>
      <BusyLoaderView />
    </Suspense>
  ) : null;
}
