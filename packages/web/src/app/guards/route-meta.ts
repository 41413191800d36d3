/**
 * What a route declares about itself, kept in React Router's `handle` so the route table
 * stays the one place routes are described.
 */
export interface RouteMeta {
  /** Guards to run, by name; those of every matched route run, outermost first. */
  middleware?: readonly string[];
  /** Signed-in users are sent away from this page (login, register, recovery...). */
  preventToUser?: boolean;
  /** Only for signed-in users: others go to /login?next=<this page>. */
  requiresUser?: boolean;
}

export function routeMeta(handle: unknown): RouteMeta {
  return handle && typeof handle === 'object' ? (handle as RouteMeta) : {};
}
