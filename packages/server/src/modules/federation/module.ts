import type { Platform } from '../../platform/modules';
import { defineModule } from '../../platform/modules';
import type { AuthMade } from '../auth';
import { withSessions, type SessionsMade } from '../sessions';
import { federationRoutes, socialFormPostRoute } from './routes';
import { createFederationService, type FederationService } from './service';

export const federationModule = defineModule({
  name: 'federation',
  create: (needs: { platform: Platform; sessions: SessionsMade; auth: AuthMade }): { federation: FederationService } => {
    const { config } = needs.platform;
    const sessions = needs.sessions.service;
    return {
      federation: createFederationService({
        ...withSessions(needs),
        signIn: needs.auth.signIn,
        provedRecently: (session) => sessions.provedWithin(session, config.REAUTH_MAX_AGE_SECONDS),
      }),
    };
  },
  // Apple's form_post arrives outside /v3 (POST /callback) and only redirects to the page.
  rootRoutes: async (app) => {
    await app.register(socialFormPostRoute);
  },
  routes: async (api, { federation }, { platform }) => {
    await api.register(federationRoutes(platform.config, federation));
  },
});
