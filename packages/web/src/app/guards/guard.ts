/** What a guard is: the shape that middleware.ts runs and each guard file implements. */
import type { SessionUser } from '../../lib/session';
import type { RouteMeta } from './route-meta';

export interface GuardContext {
  url: URL;
  /** Meta of the matched routes, outermost first. */
  matched: readonly RouteMeta[];
  /** Fetched only when a guard asks: pages that care about nobody's session cost no request. */
  currentUser(): Promise<SessionUser | null>;
}

/** A guard returns a redirect to stop the navigation, or nothing to let it through. */
export type Guard = (context: GuardContext) => Response | undefined | Promise<Response | undefined>;
