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

const fetched = new Set<() => Promise<unknown>>();

/** Whether a link's page would send this visitor elsewhere (its matched routes, outermost first). */
export type SendsAway = (matched: RouteObject[], url: URL) => boolean;

/**
 * Fetches the code of every lazy route that the in-app links on the page lead to (each once),
 * but for pages that would send the visitor elsewhere (`sendsAway`): the sign-in page's logo
 * links home, whose shell and pages are most of the app, which a signed-out visitor cannot open.
 */
export function prefetchLinkedRoutes(routes: RouteObject[], root: ParentNode = document, sendsAway: SendsAway = () => false): number {
  let started = 0;
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    let url: URL;
    try {
      url = new URL(anchor.href, location.href);
    } catch {
      continue;
    }
    if (url.origin !== location.origin) continue;
    const matches = matchRoutes(routes, url.pathname) ?? [];
    if (sendsAway(matches.map((match) => match.route), url)) continue;
    for (const match of matches) {
      // A lazy page's route keeps how to fetch its code in its handle (app/lazy-page.tsx).
      const load = (match.route.handle as { load?: unknown } | undefined)?.load as (() => Promise<unknown>) | undefined;
      if (typeof load !== 'function' || fetched.has(load)) continue;
      fetched.add(load);
      started += 1;
      // The module is kept by its route: the navigation later finds it loaded.
      Promise.resolve()
        .then(load)
        .catch(() => fetched.delete(load));
    }
  }
  return started;
}

/**
 * Link prefetch (the spec's constants: idle timeout 2000 ms): after each page change, once the
 * browser is idle (and at the latest LINK_PREFETCH_IDLE_MS later), the routes the page links
 * to have their code fetched, so following a link does not wait for a chunk. main.tsx starts
 * it on the visitor's first interaction, so a first visit nobody touches fetches nothing more.
 */
export function startLinkPrefetch(router: PrefetchRouter, sendsAway?: SendsAway): () => void {
  const run = () => whenIdle(() => prefetchLinkedRoutes(router.routes, document, sendsAway));
  run();
  return router.subscribe(run);
}
