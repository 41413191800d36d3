import { use, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteMeta } from './guards/route-meta';

/**
 * What a route of the table keeps in its `handle`: its guards' meta, and for a lazy page how
 * to fetch its code (`load`, also what link prefetch fetches) and the text it needs (`text`).
 */
export interface RouteHandle extends RouteMeta {
  load?: () => Promise<unknown>;
  text?: () => Promise<unknown>;
}

export function routeHandle(handle: unknown): RouteHandle {
  return handle && typeof handle === 'object' ? (handle as RouteHandle) : {};
}

interface LazyPageOptions {
  meta?: RouteMeta;
  /** The page's text, fetched alongside its code on every visit (a no-op once loaded). */
  text?: () => Promise<unknown>;
}

/**
 * A route whose page is the named export `name` of a module loaded on demand. The navigation
 * (RootRoute) shows a page only after its `load` has resolved, so the page renders at once,
 * without suspending: no loader flashes in place of the server-rendered first screen, and the
 * page being left stays on view while the next one's code arrives.
 */
export function lazyPage<Module, Name extends keyof Module>(importModule: () => Promise<Module>, name: Name, { meta, text }: LazyPageOptions = {}): Pick<RouteObject, 'element' | 'handle'> {
  let Page: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= importModule().then(
      (module) => {
        Page = module[name] as ComponentType;
      },
      (error: unknown) => {
        // A failed chunk is asked for again next time (after a deploy, the reload fetches the new one).
        loading = undefined;
        throw error;
      },
    ));
  function LazyPage() {
    if (!Page) use(load());
    return Page ? <Page /> : null;
  }
  return { element: <LazyPage />, handle: { ...meta, load, text } satisfies RouteHandle };
}
