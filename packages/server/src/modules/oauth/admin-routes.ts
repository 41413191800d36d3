import { adminAppEndpoints, adminKeyEndpoints, APP_LOGO_MAX_BYTES } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../platform/http/route';
import type { AdminApps } from './admin-apps';
import type { AdminKeys } from './admin-keys';

/**
 * Apps and signing keys under `/v3/admin`. Who may call each (owners and support read apps,
 * owners change them and own the keys), two-step, the recent proof, the reason and the
 * operator audit log are the declarations' and the operators module's, for every admin route.
 */
export function oauthAdminRoutes(apps: AdminApps, keys: AdminKeys): FastifyPluginAsync {
  return async (app) => {
    route(app, adminAppEndpoints.listApps, async () => ({ apps: await apps.list() }));
    route(app, adminAppEndpoints.getApp, async (request) => apps.get(request.params.client_id));
    route(app, adminAppEndpoints.registerApp, async (request) => apps.register(request.body));
    route(app, adminAppEndpoints.updateApp, async (request) => apps.update(request.params.client_id, request.body));
    // A logo file rides as base64 in JSON (with the reason every change carries): room for 5 MB of it.
    route(app, adminAppEndpoints.setAppLogo, async (request) => apps.setLogo(request.params.client_id, request.body), { bodyLimit: Math.ceil(APP_LOGO_MAX_BYTES / 3) * 4 + 16 * 1024 });
    route(app, adminAppEndpoints.rotateAppSecret, async (request) => apps.rotateSecret(request.params.client_id));
    route(app, adminAppEndpoints.disableApp, async (request) => apps.setDisabled(request.params.client_id, true));
    route(app, adminAppEndpoints.enableApp, async (request) => apps.setDisabled(request.params.client_id, false));
    route(app, adminAppEndpoints.deleteApp, async (request) => {
      await apps.remove(request.params.client_id);
    });

    route(app, adminKeyEndpoints.listSigningKeys, async () => ({ keys: await keys.list(), reload_seconds: keys.reloadSeconds, publish_ahead_seconds: keys.publishAheadSeconds }));
    route(app, adminKeyEndpoints.rotateSigningKeys, async (request) => keys.rotate(request.body.immediately));
    route(app, adminKeyEndpoints.dropSigningKey, async (request) => {
      await keys.drop(request.params.kid);
    });
  };
}
