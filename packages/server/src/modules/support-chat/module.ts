import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import { supportChatRoutes, type ProductPlanLookup } from './routes';

/** The Chatwoot identity of the signed-in user, with their plan of the product (billing). */
export const supportChatModule = defineModule({
  name: 'supportChat',
  create: () => undefined,
  routes: async (api, _made, { platform, billing }: { platform: Platform; billing: { billing: { productPlan: ProductPlanLookup } } }) => {
    await api.register(supportChatRoutes(platform.config, (userId, product) => billing.billing.productPlan(userId, product)));
  },
});
