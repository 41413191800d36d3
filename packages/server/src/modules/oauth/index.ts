/**
 * The oauth module: the OpenID Connect provider (oidc-provider) for the products and for
 * outside apps, its storage on our database, its keys, its clients, and the portal's pages
 * around it (consent, Connected apps, device sign-in).
 */
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import type { DataProtection } from '../../platform/data-protection';
import { egressPolicyFor } from '../../platform/egress';
import { defineModule, type Late, type Platform } from '../../platform/modules';
import type { RateLimiter } from '../../platform/rate-limit';
import type { SessionService, SessionsMade } from '../sessions';
import { createUserService } from '../users';
import { accountReader } from './accounts';
import { createAdminApps } from './admin-apps';
import { createAdminKeys } from './admin-keys';
import { installSigningKeyReloadJob, providerWithKeys } from './current-provider';
import { loadSigningKeys } from './keys';
import { createProvider, type PlanClaim } from './provider';
import { productAccessTokens, productClientTokens } from './product-tokens';
import { installOidcSweepJob } from './sweep';
import { oauthProviderRoutes, oauthRoutes } from './routes';
import { oauthAdminRoutes } from './admin-routes';
import { createOAuthService } from './service';

export { firstPartyClients, thirdPartyClients, type ThirdPartyClients, type ThirdPartyInput } from './clients';
export { installSigningKeyReloadJob, type CurrentProvider } from './current-provider';
export { dropSigningKey, KEY_PUBLISH_AHEAD_SECONDS, loadSigningKeys, rotateSigningKey, RETIRED_KEY_GRACE_SECONDS, SIGNING_ALGS } from './keys';
export { oauthProviderRoutes, oauthRoutes } from './routes';
export { oauthAdminRoutes } from './admin-routes';
export { OIDC_ROUTES, type PlanClaim } from './provider';
export { installOidcSweepJob, sweepExpired } from './sweep';
export type { OAuthService } from './service';
export { serviceBelongsTo, type ProductClient, type ProductClientTokens } from './product-tokens';

/** The provider and the service around it; ending a portal session ends what stood on it. */
export async function createOAuth(deps: {
  config: Config;
  db: Database;
  secrets: DataProtection;
  sessions: SessionService;
  limiter: RateLimiter;
  /** The time the signing keys are chosen at (tests move it past a rotated key's activation). */
  clock: Clock;
  log: { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };
  /** The person's plan of a product, for the `plan` claim of the product's own clients (billing's, wired in app.ts). */
  productPlan?: (userId: string, product: string) => Promise<PlanClaim | undefined>;
  /** Each token the token endpoint grants (the operators' dashboard counts them; never throws). */
  onTokenGrant?: () => void;
}) {
  const accounts = accountReader(createUserService(deps.db).findById);
  const provider = await providerWithKeys(
    () => loadSigningKeys(deps.db, deps.secrets, deps.clock.now()),
    (keys) => createProvider({ ...deps, accounts }, keys),
  );
  const service = createOAuthService({ db: deps.db, provider: provider.current, limiter: deps.limiter, log: deps.log });
  deps.sessions.onEnded(async (ended) => {
    accounts.forget(ended.userId);
    await service.portalSessionsEnded(ended);
  });
  // Apps and signing keys in the operators' console (admin-routes.ts).
  const admin = {
    apps: createAdminApps({ config: deps.config, db: deps.db, provider: provider.current, egress: egressPolicyFor(deps.config) }),
    keys: createAdminKeys({ db: deps.db, secrets: deps.secrets, clock: deps.clock, provider, reloadSeconds: deps.config.OIDC_KEYS_RELOAD_SECONDS }),
  };
  return { provider, service, admin, accessTokens: productAccessTokens(provider.current, deps.db), clientTokens: productClientTokens(provider.current) };
}

export type OAuthMade = Awaited<ReturnType<typeof createOAuth>> & { productPlan: Late<ProductPlanClaim> };
/** The person's plan of a product, for the `plan` claim of the product's own clients. */
export type ProductPlanClaim = (userId: string, product: string) => Promise<PlanClaim | undefined>;

/**
 * The OpenID Connect provider: its login is the portal session; ending one ends the other. The
 * `plan` claim comes from billing, listed later (billing needs organizations, which need the
 * sign-in pipeline): billing binds `productPlan`, asked only once requests arrive.
 */
export const oauthModule = defineModule({
  name: 'oauth',
  create: async (needs: { platform: Platform; sessions: SessionsMade; adminDashboard: { countEvent(event: 'token_grant'): Promise<void> } }, host): Promise<OAuthMade> => {
    const { config, db, secrets, limiter, clock, log } = needs.platform;
    const productPlan = host.late<ProductPlanClaim>('oauth: the plan claim (billing)');
    const made = await createOAuth({
      config,
      db,
      secrets,
      sessions: needs.sessions.service,
      limiter,
      clock,
      log,
      // The dashboard's counter holds counts in memory and writes them about once a second (admin-dashboard counter.ts).
      onTokenGrant: () => void needs.adminDashboard.countEvent('token_grant'),
      productPlan: (userId, product) => productPlan.get()(userId, product),
    });
    return { ...made, productPlan };
  },
  jobs: (app, { provider }, { platform: { config, db } }) => {
    installOidcSweepJob(app, db);
    installSigningKeyReloadJob(app, provider, config.OIDC_KEYS_RELOAD_SECONDS);
  },
  rootRoutes: async (app, { provider }, { platform, sessions }) => {
    await app.register(oauthProviderRoutes(platform.config, sessions.service, provider.current));
  },
  routes: async (api, { service, admin }) => {
    await api.register(oauthRoutes(service));
    await api.register(oauthAdminRoutes(admin.apps, admin.keys));
  },
});
