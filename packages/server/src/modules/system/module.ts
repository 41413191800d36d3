import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { healthRoutes } from './routes';

/** Health and readiness, outside /v3. The web app's pages are installed by app.ts after every route. */
export const systemModule = defineModule({
  name: 'system',
  create: () => undefined,
  rootRoutes: async (app, _made, { platform }: { platform: Platform }) => {
    await app.register(healthRoutes(platform.database));
  },
});
