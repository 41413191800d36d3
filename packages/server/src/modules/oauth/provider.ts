import { createPrivateKey, createPublicKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { and, desc, eq } from 'drizzle-orm';
import { MODERATORS_SCOPE } from '@portal/contracts';
import type { JWK } from 'jose';
import Provider, { errors, ExternalSigningKey, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { oidcModels, oidcSessionLinks } from '../../db/schema';
import { safeEqual, sha256 } from '../../platform/crypto';
import type { DataProtection } from '../../platform/data-protection';
import { egressFetch, egressPolicyFor } from '../../platform/egress';
import type { AccountReader } from './accounts';
import { createAdapterFactory } from './adapter';
import { firstPartyClients, PERSON_SCOPES, type PortalClientMetadata } from './clients';
import { simplePage } from './pages';
import { grantRequestedApiScopes, resourceIndicatorsFeature, resourceServers } from './resource-servers';
import { logoutFormTargets, SELF_POSTING_LOGOUT_CSP, withFormTargets } from './logout-targets';
import { introspectionAllowed, revokesGrant, signInOfRevocation } from './token-policies';

/** The portal session a provider request came with (read by the Fastify route that hands the request over). */
export interface PortalIdentity {
  sessionId: string;
  userId: string;
  amr: string[];
  authTime: Date;
  /** Set-Cookie values that sign the browser out of the portal (RP-initiated logout). */
  clearCookies: string[];
  /** Ends the portal session (RP-initiated logout ends the one session). */
  signOut(): Promise<void>;
}

/** Per raw request: set by the hand-over, read by the provider's checks and middleware. */
export const portalIdentities = new WeakMap<IncomingMessage, PortalIdentity | null>();

/** ACR values: one factor, or more than one (RFC 8176's `mfa`, or a user-verified passkey). */
export const ACR_SINGLE = 'urn:portal:loa:1';
export const ACR_MULTI = 'urn:portal:loa:2';
export const acrFor = (amr: readonly string[]) => (amr.includes('mfa') || (amr.includes('hwk') && amr.includes('user')) ? ACR_MULTI : ACR_SINGLE);

/**
 * Whether an authorization request accepts only more than one factor: `acr_values` naming
 * loa:2 and not loa:1, or an essential `acr` claim whose values are loa:2 only.
 */
export function multiFactorRequired(params: { acr_values?: unknown; claims?: unknown }): boolean {
  const acceptsOnlyMulti = (values: readonly unknown[]) => values.includes(ACR_MULTI) && !values.includes(ACR_SINGLE);
  if (typeof params.acr_values === 'string' && acceptsOnlyMulti(params.acr_values.split(' '))) return true;
  if (typeof params.claims !== 'string') return false;
  try {
    const claims = JSON.parse(params.claims) as { id_token?: { acr?: { essential?: boolean; value?: unknown; values?: unknown } } };
    const acr = claims.id_token?.acr;
    if (!acr?.essential) return false;
    return acceptsOnlyMulti(Array.isArray(acr.values) ? acr.values : [acr.value]);
  } catch {
    return false; // the provider refuses a malformed claims parameter itself
  }
}

/** An OAuth error answer in place of what the provider had answered (RFC 6749 section 5.2). */
function answerError(ctx: KoaContextWithOIDC, error: InstanceType<typeof errors.OIDCProviderError>): void {
  ctx.status = error.statusCode;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error: error.error, error_description: error.error_description };
}

/** Paths of the provider's endpoints. The authorization endpoint is the spec's `/o/authorize`. */
export const OIDC_ROUTES = {
  authorization: '/o/authorize',
  token: '/oidc/token',
  jwks: '/oidc/jwks',
  userinfo: '/oidc/userinfo',
  introspection: '/oidc/token/introspection',
  revocation: '/oidc/token/revocation',
  end_session: '/oidc/session/end',
  device_authorization: '/oidc/device/auth',
  // The device flow's verification_uri: our own page (the provider's is never routed to it).
  code_verification: '/login/quick-app',
  registration: '/oidc/reg',
  pushed_authorization_request: '/oidc/request',
  backchannel_authentication: '/oidc/backchannel',
  challenge: '/oidc/challenge',
  credential: '/oidc/credential',
} as const;

export const INTERACTION_PATH = '/o/interaction';

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
  onTokenGrant?: () => Promise<void>;
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
 * A signing key of ours (keys.ts) that signs with node:crypto's synchronous `sign`: 26 µs of
 * CPU for an ES256 signature, against 80 µs through jose's webcrypto (a thread-pool job and
 * its promise), on every code and refresh grant's ID token. oidc-provider takes such keys as
 * ExternalSigningKey (the experimental `externalSigningSupport`, acknowledged below: a
 * version that changes it fails at start, in every test).
 */
class LocalSigningKey extends ExternalSigningKey {
  readonly #kid: string | undefined;
  readonly #alg: string | undefined;
  readonly #private: KeyObject;
  readonly #public: KeyObject;

  constructor(jwk: JWK) {
    super();
    this.#kid = jwk.kid;
    this.#alg = jwk.alg;
    this.#private = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' });
    this.#public = createPublicKey(this.#private);
  }

  override get kid() {
    return this.#kid;
  }

  override get alg() {
    return this.#alg;
  }

  override keyObject(): KeyObject {
    return this.#public;
  }

  override sign(data: Uint8Array): Uint8Array {
    // JWS's ES256 is the raw r||s pair (IEEE P1363), not DER.
    return sign('sha256', data, this.#alg?.startsWith('ES') ? { key: this.#private, dsaEncoding: 'ieee-p1363' } : this.#private);
  }
}

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

  const storage = createAdapterFactory(db, { revocationSignIn: () => signInOfRevocation(Provider.ctx) });
  const policy = interactionPolicy.base();
  // One session: the provider's login holds only while the portal session it came from does
  // (signed out, revoked, or another person signed in on this browser: ask again).
  policy.get('login')!.checks.push(
    new interactionPolicy.Check('portal_session', 'the portal session ended or changed', 'login_required', (ctx) => {
      const portal = portalIdentities.get(ctx.req);
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return portal?.userId === accountId ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
    // Step-up: an app that accepts only more than one factor sends a single-factor login back
    // to the interaction, which asks the person to sign in again with their second step.
    new interactionPolicy.Check('multi_factor_required', 'the app asks for more than one factor', 'login_required', (ctx) => {
      if (!multiFactorRequired(ctx.oidc.params ?? {})) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return ctx.oidc.session?.acr === ACR_MULTI ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );

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
      const client = ctx.oidc?.client?.metadata() as PortalClientMetadata | undefined;
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
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const page = simplePage(
            'Sign out?',
            'Do you want to sign out of your account on this browser?',
            `${form}<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button><button type="submit" form="op.logoutForm">No, stay signed in</button>`,
            { formTargets: logoutFormTargets(ctx) },
          );
          ctx.set('content-security-policy', page.csp);
          ctx.type = 'html';
          ctx.body = page.html;
        },
        async postLogoutSuccessSource(ctx) {
          const page = simplePage('Signed out', 'You have signed out.');
          ctx.set('content-security-policy', page.csp);
          ctx.type = 'html';
          ctx.body = page.html;
        },
      },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        // Our page asks for the code (the provider's own page is not served).
        async userCodeInputSource(ctx) {
          ctx.redirect(OIDC_ROUTES.code_verification);
        },
        async successSource(ctx) {
          const page = simplePage('Signed in', 'The app is signed in. You can close this page.');
          ctx.set('content-security-policy', page.csp);
          ctx.type = 'html';
          ctx.body = page.html;
        },
      },
    },
    routes: OIDC_ROUTES,
    interactions: {
      policy,
      url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}`,
    },
    // First-party clients (the products) never ask: their grant covers what they request. Other
    // apps' grants are remembered per person until revoked, across browser sessions.
    async loadExistingGrant(ctx) {
      const client = ctx.oidc.client!;
      const session = ctx.oidc.session!;
      const accountId = session.accountId!;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId) ?? (await rememberedGrant(accountId, client.clientId));
      let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (grant && (grant.accountId !== accountId || grant.clientId !== client.clientId)) grant = undefined;
      if ((client.metadata() as PortalClientMetadata).first_party) {
        grant ??= new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
        grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
        if (ctx.oidc.requestParamClaims) grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
        grantRequestedApiScopes(ctx, grant);
        await grant.save();
      }
      return grant;
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
    async renderError(ctx, out) {
      const page = simplePage(
        'This request cannot be completed',
        out.error === 'invalid_client' || out.error === 'invalid_redirect_uri'
          ? 'The app that sent you here is not registered for this address. Nothing was shared with it.'
          : `The app's request is not valid (${out.error}). Nothing was shared with it.`,
      );
      ctx.set('content-security-policy', page.csp);
      ctx.type = 'html';
      ctx.body = page.html;
    },
  };

  async function rememberedGrant(accountId: string, clientId: string): Promise<string | undefined> {
    const [row] = await db
      .select({ id: oidcModels.id })
      .from(oidcModels)
      .where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.accountId, accountId), eq(oidcModels.clientId, clientId)))
      .orderBy(desc(oidcModels.expiresAt))
      .limit(1);
    return row?.id;
  }

  const provider = new Provider(config.PLATFORM_ORIGIN, configuration);
  // X-Forwarded-Proto and -Host are believed only behind the proxies TRUST_PROXY names.
  provider.proxy = config.TRUST_PROXY !== false;

  // Client secrets (first-party from OAUTH_CLIENT_SECRETS, outside apps from `npm run clients`)
  // reach the provider as SHA-256 only; the presented secret is hashed before comparing.
  const ClientClass = provider.Client as unknown as { prototype: { clientSecret?: string; compareClientSecret(actual: string): Promise<boolean> | boolean } };
  ClientClass.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    const stored = this.clientSecret ?? '';
    return stored.startsWith('sha256:') && safeEqual(stored, `sha256:${sha256(actual)}`);
  };

  // The provider session stands on a portal session: remember which, so ending the portal
  // session ends the provider session and the tokens that came from it.
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    if (ctx.path === OIDC_ROUTES.end_session) ctx.set('content-security-policy', SELF_POSTING_LOGOUT_CSP);
    try {
      await next();
    } finally {
      // The request's held writes (adapter.ts), before Koa sends the response this middleware is inside of.
      // A failure answers 500 with no tokens: nothing reaches a client that is not stored.
      await storage.flushRequest(ctx).catch((error: unknown) => {
        // The code or refresh token was used by another request meanwhile: nothing was saved, its grant is revoked.
        if (error instanceof errors.InvalidGrant) return answerError(ctx, error);
        deps.log.error({ err: error, route: ctx.oidc?.route }, 'oidc provider storage failed');
        throw error;
      });
    }
    const route = ctx.oidc?.route;
    // Signed out already: the provider's self-posting form goes on to the app's checked post-logout URI.
    if (route === 'end_session' && !ctx.oidc.session?.accountId) {
      ctx.set('content-security-policy', withFormTargets(ctx.response.get('content-security-policy'), logoutFormTargets(ctx)));
    }
    const portal = portalIdentities.get(ctx.req);
    if (!portal) return;
    if ((route === 'resume' || route === 'authorization') && ctx.oidc.session?.accountId === portal.userId && ctx.oidc.session.uid) {
      await db
        .insert(oidcSessionLinks)
        .values({ sessionUid: ctx.oidc.session.uid, portalSessionId: portal.sessionId })
        .onConflictDoUpdate({ target: oidcSessionLinks.sessionUid, set: { portalSessionId: portal.sessionId } });
    }
    // RP-initiated logout that the person confirmed signs them out of the portal too.
    if (route === 'end_session_confirm' && ctx.oidc.params?.logout) {
      await portal.signOut();
      ctx.append('set-cookie', portal.clearCookies);
    }
  });

  if (deps.onTokenGrant) provider.on('grant.success', () => void deps.onTokenGrant?.());
  provider.on('server_error', (_ctx, error) => deps.log.error({ err: error }, 'oidc provider error'));
  provider.on('backchannel.error', (_ctx, error, client) => deps.log.warn({ err: error, client: client.clientId }, 'back-channel logout failed'));
  return provider;
}
