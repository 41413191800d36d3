import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { withSessions, type SessionsMade } from '../sessions';
import { mfaRoutes } from './routes';
import { createSecondFactorService, type SecondFactorService } from './second-factor';
import { createMfaService, type MfaService } from './service';

export interface MfaMade {
  /** The second factor's checks and pending sign-ins; the sign-in pipeline asks it for its challenge. */
  secondFactor: SecondFactorService;
  mfa: MfaService;
}

export const mfaModule = defineModule({
  name: 'mfa',
  create: async (needs: { platform: Platform; sessions: SessionsMade }): Promise<MfaMade> => {
    const shared = withSessions(needs);
    const secondFactor = createSecondFactorService(shared);
    const mfa = createMfaService({ ...shared, secondFactor });
    await mfa.protectLegacySecrets();
    return { secondFactor, mfa };
  },
  routes: async (api, { mfa }, { platform }) => {
    await api.register(mfaRoutes(platform.config, mfa));
  },
});
