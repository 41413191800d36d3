import { LINK_PREFETCH_IDLE_MS } from '@portal/contracts';
import { matchRoutes, type RouteObject } from 'react-router';

/** What the prefetcher needs of the router: its route table, and word of each page change. */
export interface PrefetchRouter {
  routes: RouteObject[];
  subscribe(listener: () => void): () => void;
}

type IdleWindow = Window & { requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number };

function whenIdle(run: () => void): void {
  const idle = (window as IdleWindow).requestIdleCallback;
  if (idle) idle(run, { timeout: LINK_PREFETCH_IDLE_MS });
  else setTimeout(run, LINK_PREFETCH_IDLE_MS);
}

const fetched = new Set<RouteObject['lazy']>();

/** Fetches the code of every lazy route that the in-app links on the page lead to (each once). */
export function prefetchLinkedRoutes(routes: RouteObject[], root: ParentNode = document): number {
  let started = 0;
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    let url: URL;
    try {
      url = new URL(anchor.href, location.href);
    } catch {
      continue;
    }
    if (url.origin !== location.origin) continue;
    for (const match of matchRoutes(routes, url.pathname) ?? []) {
      const lazy = match.route.lazy;
      if (typeof lazy !== 'function' || fetched.has(lazy)) continue;
      fetched.add(lazy);
      started += 1;
      // The module lands in the browser's module map: the navigation later finds it there.
      Promise.resolve()
        .then(() => (lazy as () => Promise<unknown>)())
        .catch(() => fetched.delete(lazy));
    }
  }
  return started;
}

/**
 * Link prefetch (spec section 9: idle timeout 2000 ms): after each page change, once the
 * browser is idle (and at the latest LINK_PREFETCH_IDLE_MS later), the routes the page links
 * to have their code fetched, so following a link does not wait for a chunk. main.tsx starts
 * it on the visitor's first interaction, so a first visit nobody touches fetches nothing more.
 */
export function startLinkPrefetch(router: PrefetchRouter): () => void {
  const run = () => whenIdle(() => prefetchLinkedRoutes(router.routes));
  run();
  return router.subscribe(run);
}
