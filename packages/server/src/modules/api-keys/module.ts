import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { withSessions, type SessionsMade } from '../sessions';
import { apiKeyRoutes } from './routes';
import { createApiKeyService, type ApiKeyService } from './service';

/** Personal API keys; the guard authenticates them (sessions' authGuardModule). */
export const apiKeysModule = defineModule({
  name: 'apiKeys',
  create: (needs: { platform: Platform; sessions: SessionsMade }): { keys: ApiKeyService } => ({ keys: createApiKeyService(withSessions(needs)) }),
  routes: async (api, { keys }, { platform }) => {
    await api.register(apiKeyRoutes(platform.config, keys));
  },
});
