import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { SessionsMade } from '../sessions';
import type { UserService } from '../users';
import { operatorAdminRoutes } from './admin-routes';
import { grantConfiguredOwners } from './bootstrap';
import { installOperatorAccess } from './guard';
import { createOperatorService, type OperatorService } from './service';

/** Operators: every admin endpoint is guarded and its changes recorded by this module. */
export const operatorsModule = defineModule({
  name: 'operators',
  create: async ({ platform: { config, db, clock, log }, users }: { platform: Platform; sessions: SessionsMade; users: UserService }): Promise<{ operators: OperatorService }> => {
    const operators = createOperatorService({ db, clock, findUserByEmail: (email) => users.findByEmail(email) });
    await grantConfiguredOwners(operators, config.OPERATOR_EMAILS, log);
    return { operators };
  },
  guard: (app, { operators }, { platform, sessions }) => installOperatorAccess(app, platform.config, sessions.service, operators),
  routes: async (api, { operators }, { platform }) => {
    await api.register(operatorAdminRoutes(operators, platform.clock));
  },
});
