import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { AuthMade } from '../auth';
import type { MfaMade } from '../mfa';
import { withSessions, type SessionsMade } from '../sessions';
import { passkeyRoutes } from './routes';
import { createPasskeyService, type PasskeyService } from './service';

export const passkeysModule = defineModule({
  name: 'passkeys',
  create: (needs: { platform: Platform; sessions: SessionsMade; mfa: MfaMade; auth: AuthMade }): { passkeys: PasskeyService } => ({
    passkeys: createPasskeyService({ ...withSessions(needs), auth: needs.auth.auth, signIn: needs.auth.signIn, secondFactor: needs.mfa.secondFactor }),
  }),
  routes: async (api, { passkeys }, { platform }) => {
    await api.register(passkeyRoutes(platform.config, passkeys));
  },
});
