import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { createDashboardCounter, type DashboardCounter } from './counter';
import { adminDashboardRoutes } from './routes';

/** The operators' dashboard: its counters, raised by the sign-in pipeline and the OpenID provider. */
export const adminDashboardModule = defineModule({
  name: 'adminDashboard',
  create: ({ platform: { db, clock, log } }: { platform: Platform }): { countEvent: DashboardCounter } => ({ countEvent: createDashboardCounter({ db, clock, log }) }),
  routes: async (api, _made, { platform: { db, clock, config } }) => {
    await api.register(adminDashboardRoutes({ db, clock, idleTimeoutSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS }));
  },
});
