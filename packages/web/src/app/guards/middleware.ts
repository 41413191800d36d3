import { data } from 'react-router';
import { authGuard } from './auth-guard';
import type { Guard, GuardContext } from './guard';
import { maintenanceGuard } from './maintenance-guard';
import type { RouteMeta } from './route-meta';

export type { Guard, GuardContext } from './guard';

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
