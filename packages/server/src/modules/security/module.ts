import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { MfaMade } from '../mfa';
import type { PasskeyService } from '../passkeys';
import { withSessions, type SessionsMade } from '../sessions';
import { securityRoutes } from './routes';
import { createSecurityService, type SecurityService } from './service';

export const securityModule = defineModule({
  name: 'security',
  create: (needs: { platform: Platform; sessions: SessionsMade; mfa: MfaMade; passkeys: { passkeys: PasskeyService } }): { security: SecurityService } => ({
    security: createSecurityService({ ...withSessions(needs), secondFactor: needs.mfa.secondFactor, mfa: needs.mfa.mfa, passkeys: needs.passkeys.passkeys }),
  }),
  routes: async (api, { security }, { platform }) => {
    await api.register(securityRoutes(platform.config, security));
  },
});
