import { MODERATORS_SCOPE } from '@portal/contracts';
import type { JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { DataProtection } from '../../platform/data-protection';
import { egressFetch, egressPolicyFor } from '../../platform/egress';
import type { AccountReader } from './accounts';
import { createAdapterFactory } from './adapter';
import { followOAuthChanges } from './change-feed';
import { outsideApps } from './client-adapter';
import { compareHashedClientSecrets } from './client-secrets';
import { firstPartyClients, PERSON_SCOPES, type PortalClientMetadata } from './clients';
import { existingGrantLoader } from './existing-grant';
import { loginPolicy } from './login-policy';
import { INTERACTION_PATH, OIDC_ROUTES } from './oidc-routes';
import { ACR_MULTI, ACR_SINGLE } from './portal-identity';
import { portalSignOnParams, standOnThisPortalSession } from './portal-sign-on';
import { providerResources, resourcesOf } from './provider-resources';
import { installPortalMiddleware } from './provider-middleware';
import { devicePages, logoutPages, renderError } from './provider-pages';
import { resourceIndicatorsFeature, resourceServers } from './resource-servers';
import { LocalSigningKey } from './signing-key';
import { tokenCache } from './token-cache';
import { introspectionAllowed, revokesGrant, signInOfRevocation } from './token-policies';

export { INTERACTION_PATH, OIDC_ROUTES } from './oidc-routes';
export { ACR_MULTI, ACR_SINGLE, acrFor, multiFactorRequired, portalIdentities, type PortalIdentity } from './portal-identity';

export interface ProviderDependencies {
  config: Config;
  db: Database;
  secrets: DataProtection;
  log: { warn(object: unknown, message: string): void; error(object: unknown, message: string): void };
  /** The person behind a token (index.ts: shared with the end of portal sessions, which forgets them). */
  accounts: AccountReader;
  /**
   * The person's plan of a product (billing's, handed over by app.ts): the `plan` claim of the
   * product's own (first-party) clients, in userinfo and the ID token when `plan` is asked.
   */
  productPlan?: (userId: string, product: string) => Promise<PlanClaim | undefined>;
  /** Each token the token endpoint grants (the operators' dashboard counts them; never throws). */
  onTokenGrant?: () => void;
}

/** The `plan` claim: which plan of the client's product the person has, and until when. */
export interface PlanClaim {
  product: string;
  plan: string;
  tier: string;
  /** trialing, active, past_due; null on the free plan. */
  status: string | null;
  period_end: string | null;
  trial_ends_at: string | null;
}

const DAY = 24 * 60 * 60;

/**
 * The OpenID Connect provider (oidc-provider 9): code flow only (PKCE S256 for every client),
 * refresh tokens rotated on every use (a replayed one revokes its grant: the whole family),
 * client credentials, revocation, introspection, userinfo, RP-initiated and back-channel
 * logout, the `iss` response parameter, the device flow. Its login is the portal session.
 * `keys` are the published signing keys, each algorithm's signing key first (keys.ts).
 */
export async function createProvider(deps: ProviderDependencies, keys: JWK[]): Promise<Provider> {
  const { config, db, secrets } = deps;
  const egress = egressPolicyFor(config);

  // Outside apps and the tokens just issued or read are kept in memory while the change feed is
  // live: any node's change of an app, or revocation of a token or grant, forgets it on every
  // node as it commits (client-cache.ts, token-cache.ts); a change of keys reloads them.
  const clients = outsideApps(db);
  const tokens = tokenCache();
  const resources = providerResources();
  const changes = await followOAuthChanges(
    db,
    {
      client: (clientId) => clients.forget(clientId),
      keys: () => resources.keysChanged(),
      token: (id) => tokens.forgetToken(id),
      grant: (id) => tokens.forgetGrant(id),
      gap: () => {
        clients.clear();
        tokens.clear();
        resources.keysChanged();
      },
    },
    { keepaliveMs: config.LISTEN_KEEPALIVE_MS },
  );
  clients.follow(changes);
  tokens.follow(changes);
  const storage = createAdapterFactory(db, { revocationSignIn: () => signInOfRevocation(Provider.ctx), clients, tokens });
  const existingGrant = existingGrantLoader(storage.rememberedGrant);

  const configuration: Configuration = {
    adapter: storage.adapterFor,
    clients: firstPartyClients(config),
    jwks: { keys: keys.map((key) => new LocalSigningKey(key)) },
    cookies: {
      keys: [secrets.keyedHash('oidc-provider cookie key')],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    async findAccount(ctx, sub) {
      const user = await deps.accounts.read(sub);
      if (!user) return undefined;
      // Read off the client itself: oidc-provider keeps extraClientMetadata properties on the
      // instance under their own names, where metadata() rebuilds every key of the client (a
      // measurable share of each refresh grant's CPU).
      const client = ctx.oidc?.client as Pick<PortalClientMetadata, 'first_party' | 'service_scope'> | undefined;
      // Only a product's own clients learn its plan; outside apps never get the claim.
      const product = client?.first_party ? client.service_scope : undefined;
      return {
        accountId: user.id,
        claims: async (_use, scope) => ({
          sub: user.id,
          email: user.email,
          email_verified: Boolean(user.activatedAt),
          name: user.fullName,
          locale: user.language,
          ...(product && deps.productPlan && scope.split(' ').includes('plan') ? { plan: (await deps.productPlan(user.id, product)) ?? null } : {}),
        }),
      };
    },
    // How and when the person authenticated (acr, amr, auth_time) ride with `openid`: every ID token has them.
    claims: { sid: null, iss: null, openid: ['sub', 'acr', 'amr', 'auth_time'], email: ['email', 'email_verified'], profile: ['name', 'locale'], plan: ['plan'] },
    // `moderators` is a product back end's (client credentials of a confidential first-party client: clients.ts).
    scopes: [...PERSON_SCOPES, MODERATORS_SCOPE],
    acrValues: [ACR_SINGLE, ACR_MULTI],
    // ID tokens carry the claims their scopes grant (email, name, locale), not only sub.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    clientDefaults: { id_token_signed_response_alg: 'RS256', require_auth_time: true, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    extraClientMetadata: {
      properties: ['first_party', 'service_scope', 'portal_logo'],
      validator(_ctx, key, value) {
        if (key === 'portal_logo' && value !== undefined && !Number.isInteger(value)) throw new Error('portal_logo must be an integer');
        if (key === 'first_party' && value !== undefined && typeof value !== 'boolean') throw new Error('first_party must be a boolean');
        if (key === 'service_scope' && value !== undefined && typeof value !== 'string') throw new Error('service_scope must be a string');
      },
    },
    features: {
      devInteractions: { enabled: false },
      externalSigningSupport: { enabled: true, ack: 'experimental-01' },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: introspectionAllowed },
      revocation: { enabled: true },
      // Products' own APIs get JWT access tokens when a product asks with `resource` (resource-servers.ts).
      resourceIndicators: resourceIndicatorsFeature(resourceServers(config)),
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: { enabled: true, ...logoutPages },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        ...devicePages,
      },
    },
    routes: OIDC_ROUTES,
    // A browser signed in to the portal is signed in by a plain authorization request itself (portal-sign-on.ts).
    extraParams: portalSignOnParams,
    interactions: {
      policy: loginPolicy(),
      url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
    },
    // Once the login is settled (an authorization or its resume), before anything is issued: the
    // provider session stands on this portal session first (portal-sign-on.ts).
    async loadExistingGrant(ctx) {
      await standOnThisPortalSession(ctx, storage.linkedPortalSession);
      return existingGrant(ctx);
    },
    // An app's revocation of one sign-in's token keeps the person's consent (token-policies.ts).
    revokeGrantPolicy: revokesGrant,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every refresh answers a new refresh token; the used one is consumed, and presenting it
    // again revokes the grant with everything issued from it (oidc-provider's reuse detection).
    rotateRefreshToken: () => true,
    // Tokens outlive the provider's cookie session; ending the portal session ends them (service.ts).
    expiresWithSession: async () => false,
    ttl: {
      // A product API's JWT lives what its resource server says (minutes: resource-servers.ts).
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 60 * 60,
      AuthorizationCode: 60,
      ClientCredentials: 10 * 60,
      DeviceCode: 10 * 60,
      Grant: 365 * DAY,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      RefreshToken: 30 * DAY,
      Session: 30 * DAY,
    },
    // Browser apps of a client may call the token endpoint from the origins of its redirect URIs.
    clientBasedCORS(_ctx, origin, client) {
      return client.redirectUris?.some((uri) => uri.startsWith('http') && new URL(uri).origin === origin) ?? false;
    },
    // Outgoing calls to URLs clients registered (back-channel logout, jwks_uri, sector_identifier_uri,
    // request_uri) go through the egress guard: https to public addresses only, checked at connection
    // time (no SSRF, no DNS rebinding); outside production, products on this machine are reachable.
    fetch(url, options) {
      return egressFetch(url instanceof Request ? url.url : url, options, egress);
    },
    renderError,
  };

  const provider = new Provider(config.PLATFORM_ORIGIN, configuration);
  // X-Forwarded-Proto and -Host are believed only behind the proxies TRUST_PROXY names.
  provider.proxy = config.TRUST_PROXY !== false;

  compareHashedClientSecrets(provider);

  installPortalMiddleware(provider, { flushRequest: storage.flushRequest, linkSession: storage.linkSession, log: deps.log });

  if (deps.onTokenGrant) provider.on('grant.success', deps.onTokenGrant);
  provider.on('server_error', (_ctx, error) => deps.log.error({ err: error }, 'oidc provider error'));
  resources.close = () => changes.close();
  resources.forgetTokens = () => tokens.clear();
  provider.on('backchannel.error', (_ctx, error, client) => deps.log.warn({ err: error, client: client.clientId }, 'back-channel logout failed'));
  resourcesOf.set(provider, resources);
  return provider;
}
