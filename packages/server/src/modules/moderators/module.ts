import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { withSessions, type SessionsMade } from '../sessions';
import { moderatorRoutes, type ProductTokenCheck } from './routes';
import { createModeratorService, type ModeratorService } from './service';

/** Website moderators invited by the products' back ends (client credentials, scope moderators). */
export const moderatorsModule = defineModule({
  name: 'moderators',
  create: (needs: { platform: Platform; sessions: SessionsMade; oauth: { clientTokens: ProductTokenCheck } }): { moderators: ModeratorService } => ({ moderators: createModeratorService(withSessions(needs)) }),
  routes: async (api, { moderators }, { platform, oauth }) => {
    await api.register(moderatorRoutes(platform.config, moderators, oauth.clientTokens));
  },
});
