import { defineModule } from '../../platform/modules';
import { resourcesRoutes } from './routes';

export const resourcesModule = defineModule({
  name: 'resources',
  create: () => undefined,
  routes: async (api) => {
    await api.register(resourcesRoutes);
  },
});
