import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { createDashboardCounter, type DashboardCounter } from './counter';
import { adminDashboardRoutes } from './routes';

/** The operators' dashboard: its counters, raised by the sign-in pipeline and the OpenID provider. */
export const adminDashboardModule = defineModule({
  name: 'adminDashboard',
  create: ({ platform: { db, clock, log } }: { platform: Platform }, host): { countEvent: DashboardCounter; countsWritten(): Promise<void> } => {
    const counter = createDashboardCounter({ db, clock, log });
    // Closed after the modules listed later (Fastify closes in reverse order): the counts they raise while closing are written too.
    host.onClose(() => counter.close());
    return { countEvent: counter.count, countsWritten: counter.written };
  },
  routes: async (api, { countsWritten }, { platform: { db, clock, config } }) => {
    await api.register(adminDashboardRoutes({ db, clock, idleTimeoutSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS, countsWritten }));
  },
});
