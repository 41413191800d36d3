import { data } from 'react-router';
import type { SessionUser } from '../../lib/session';
import { authGuard } from './auth-guard';
import { maintenanceGuard } from './maintenance-guard';
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

export const guards: Readonly<Record<string, Guard>> = {
  maintenance: maintenanceGuard,
  auth: authGuard,
};

/** Names declared by the matched routes, in order, each once. */
export function middlewareNames(matched: readonly RouteMeta[]): string[] {
  return [...new Set(matched.flatMap((meta) => meta.middleware ?? []))];
}

/**
 * Run the guards the matched routes name. A name with no guard is a bug in the route
 * table: it fails loudly as a 500 on the error page rather than letting the page through.
 */
export async function runMiddleware(context: GuardContext, registry: Readonly<Record<string, Guard>> = guards): Promise<Response | undefined> {
  for (const name of middlewareNames(context.matched)) {
    const guard = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (!guard) throw data({ message: `Unknown middleware ${name}`, messageKey: 'unknown_middleware', params: { name } }, { status: 500 });
    const outcome = await guard(context);
    if (outcome) return outcome;
  }
  return undefined;
}
