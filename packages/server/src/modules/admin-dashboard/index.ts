/**
 * The operators' dashboard: its route, and the counters other modules raise (the sign-in
 * pipeline's successes, failures and lockouts; the OpenID provider's token grants).
 */
export { adminDashboardRoutes } from './routes';
export type { CountedEvent } from './queries';
export { createDashboardCounter, type DashboardCounter } from './counter';
export { adminDashboardModule } from './module';
