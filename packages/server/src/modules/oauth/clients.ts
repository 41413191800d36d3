import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endpointPath, MODERATORS_SCOPE, oauthEndpoints } from '@portal/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ClientMetadata } from 'oidc-provider';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { oauthClientLogos, oauthClients, oidcModels } from '../../db/schema';
import { randomToken, sha256 } from '../../platform/crypto';
import { checkEgressTarget, type EgressPolicy } from '../../platform/egress';
import { squareWebp } from '../../platform/square-image';

export const FIRST_PARTY_FILE = fileURLToPath(new URL('./first-party-clients.json', import.meta.url));

const environment = z.enum(['production', 'development', 'test']);
const perEnvironment = <T extends z.ZodType>(value: T) => z.partialRecord(environment, value);

const firstPartySchema = z.object({
  clients: z.array(
    z.object({
      client_id: z.string().regex(/^[a-z][a-z0-9_-]{1,63}$/),
      client_name: z.string().min(1),
      service_scope: z.string().min(1),
      inner_service: z.string().optional(),
      client_uri: z.url().optional(),
      redirect_uris: perEnvironment(z.array(z.string().min(1))),
      post_logout_redirect_uris: perEnvironment(z.array(z.string().min(1))).optional(),
      backchannel_logout_uri: perEnvironment(z.url()).optional(),
      native: z
        .object({ client_id: z.string().regex(/^[a-z][a-z0-9_-]{1,63}$/), client_name: z.string().min(1), redirect_uris: z.array(z.string().min(1)).min(1) })
        .optional(),
    }),
  ),
});

/**
 * The family's products verify ES256 ID tokens (and back-channel logout tokens): a tenth of
 * RS256's signing cost on every code and refresh grant (keys.ts). Outside apps keep RS256,
 * the algorithm every OpenID Connect library must verify.
 */
const FIRST_PARTY_ID_TOKEN_ALG = 'ES256';

/** Grant types of a browser/back-end client: the code flow, refresh, and (with a secret) its own back end's tokens. */
const CODE_FLOW = ['authorization_code', 'refresh_token'];

/** The scopes a person grants an app (sign-in, profile, plan); products' back ends may add theirs (MODERATORS_SCOPE). */
export const PERSON_SCOPES = ['openid', 'offline_access', 'email', 'profile', 'plan'] as const;
export type PersonScope = (typeof PERSON_SCOPES)[number];
export const DEVICE_FLOW = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * The scopes an outside app may ask a person for: those its operator chose (`scope` in its
 * metadata), never beyond PERSON_SCOPES, `openid` always; every person scope when none were chosen.
 */
export function outsideAppScope(stored: unknown): string {
  if (typeof stored !== 'string') return PERSON_SCOPES.join(' ');
  const chosen = new Set(stored.split(' '));
  return PERSON_SCOPES.filter((scope) => scope === 'openid' || chosen.has(scope)).join(' ');
}

/** Extra metadata the provider keeps for our clients (declared in provider.ts's extraClientMetadata). */
export interface PortalClientMetadata extends ClientMetadata {
  first_party?: boolean;
  service_scope?: string;
  /** The version of the app's logo in oauth_client_logos (an outside app's, set with `npm run clients -- logo`). */
  portal_logo?: number;
}

/** A logo is shown 48 px wide; 128 px covers twice that for dense screens. */
export const CLIENT_LOGO_SIZE = 128;

/** Where the pages load an app's logo: our own origin (their CSP allows no other), the version making it cacheable. */
export const clientLogoPath = (clientId: string, version: number) => `/v3${endpointPath(oauthEndpoints.appLogo, { client_id: clientId })}?v=${version}`;

/**
 * The products' clients from the checked-in file, for this NODE_ENV. A product whose secret is
 * in OAUTH_CLIENT_SECRETS is confidential (client_secret_basic/post, and client_credentials for
 * its back end); otherwise public (no secret, PKCE). Secrets are handed to the provider as
 * their SHA-256 only.
 */
export function firstPartyClients(config: Pick<Config, 'NODE_ENV' | 'OAUTH_CLIENTS_FILE' | 'OAUTH_CLIENT_SECRETS'>): PortalClientMetadata[] {
  const file = config.OAUTH_CLIENTS_FILE ?? FIRST_PARTY_FILE;
  const parsed = firstPartySchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const env = config.NODE_ENV;
  const clients: PortalClientMetadata[] = [];
  for (const entry of parsed.clients) {
    const redirectUris = entry.redirect_uris[env] ?? [];
    if (redirectUris.length === 0) continue;
    const secret = config.OAUTH_CLIENT_SECRETS[entry.client_id];
    const backchannel = entry.backchannel_logout_uri?.[env];
    clients.push({
      client_id: entry.client_id,
      client_name: entry.client_name,
      ...(entry.client_uri ? { client_uri: entry.client_uri } : {}),
      redirect_uris: redirectUris,
      post_logout_redirect_uris: entry.post_logout_redirect_uris?.[env] ?? [],
      ...(backchannel ? { backchannel_logout_uri: backchannel, backchannel_logout_session_required: true } : {}),
      response_types: ['code'],
      grant_types: secret ? [...CODE_FLOW, 'client_credentials'] : CODE_FLOW,
      // A product's back end (its secret) may ask its client-credentials token for the moderators API.
      scope: (secret ? [...PERSON_SCOPES, MODERATORS_SCOPE] : PERSON_SCOPES).join(' '),
      ...(secret ? { client_secret: `sha256:${sha256(secret)}`, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
      first_party: true,
      service_scope: entry.inner_service ?? entry.service_scope,
      id_token_signed_response_alg: FIRST_PARTY_ID_TOKEN_ALG,
    });
    if (entry.native) {
      clients.push({
        client_id: entry.native.client_id,
        client_name: entry.native.client_name,
        application_type: 'native',
        redirect_uris: entry.native.redirect_uris,
        response_types: ['code'],
        grant_types: [...CODE_FLOW, DEVICE_FLOW],
        scope: PERSON_SCOPES.join(' '),
        token_endpoint_auth_method: 'none',
        first_party: true,
        service_scope: entry.service_scope,
        id_token_signed_response_alg: FIRST_PARTY_ID_TOKEN_ALG,
      });
    }
  }
  return clients;
}

/** What `npm run clients -- add` takes for an outside app. */
export const thirdPartyInput = z.object({
  name: z.string().trim().min(1).max(100),
  redirectUris: z.array(z.url()).min(1),
  site: z.url().optional(),
  /** A public client (a single-page or native app): no secret, PKCE required. */
  public: z.boolean().default(false),
  postLogoutRedirectUris: z.array(z.url()).default([]),
  backchannelLogoutUri: z.url().optional(),
  deviceFlow: z.boolean().default(false),
  /** Refresh tokens (the refresh_token grant); on unless an operator turns them off. */
  refreshTokens: z.boolean().default(true),
  /** The person scopes it may ask for; all of them when not given. */
  scopes: z.array(z.enum(PERSON_SCOPES)).optional(),
});
export type ThirdPartyInput = z.input<typeof thirdPartyInput>;

/** An outside app's stored metadata from what its operator gave (registration, or a whole edit). */
export function outsideAppMetadata(input: z.output<typeof thirdPartyInput>, logoVersion?: number): Omit<PortalClientMetadata, 'client_id'> {
  return {
    client_name: input.name,
    ...(input.site ? { client_uri: input.site } : {}),
    ...(logoVersion ? { portal_logo: logoVersion } : {}),
    redirect_uris: input.redirectUris,
    post_logout_redirect_uris: input.postLogoutRedirectUris,
    ...(input.backchannelLogoutUri ? { backchannel_logout_uri: input.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
    response_types: ['code'],
    grant_types: ['authorization_code', ...(input.refreshTokens ? ['refresh_token'] : []), ...(input.deviceFlow ? [DEVICE_FLOW] : [])],
    ...(input.scopes ? { scope: outsideAppScope(input.scopes.join(' ')) } : {}),
    token_endpoint_auth_method: input.public ? 'none' : 'client_secret_basic',
    first_party: false,
  };
}

/** An outside app as stored, for the operators' console. */
export interface StoredOutsideApp {
  clientId: string;
  metadata: PortalClientMetadata;
  hasSecret: boolean;
  createdAt: Date;
  updatedAt: Date;
  disabledAt: Date | null;
}

export interface RegisteredClient {
  clientId: string;
  /** Shown once, at registration and rotation; only its SHA-256 is stored. */
  clientSecret?: string;
}

/** A public client (a single-page or native app) has no secret to rotate. */
export class PublicClientHasNoSecret extends Error {
  override readonly name = 'PublicClientHasNoSecret';
  constructor(clientId: string) {
    super(`${clientId} is a public client: it has no secret to rotate`);
  }
}

/** A URL the server would request refused by the egress guard (an outside app's back-channel logout URI). */
export class OutsideAppUrlRefused extends Error {
  override readonly name = 'OutsideAppUrlRefused';
}

/**
 * Outside apps (third-party clients): stored in `oauth_clients`, secret hashed, read by the
 * provider through the adapter's Client model. They need the person's consent. `egress`: the
 * rule for the URLs the server will request (by default the production one).
 */
export function thirdPartyClients(
  db: Database,
  egress: EgressPolicy = { allowLoopback: false },
  options: {
    /** Refuses metadata the provider would refuse when it reads the app (its redirect URI rules...), before it is stored. */
    validate?: (metadata: PortalClientMetadata) => Promise<void>;
  } = {},
) {
  const toStored = (row: typeof oauthClients.$inferSelect): StoredOutsideApp => ({
    clientId: row.clientId,
    metadata: { ...(row.metadata as PortalClientMetadata), client_id: row.clientId },
    hasSecret: row.secretHash !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    disabledAt: row.disabledAt,
  });

  return {
    /** `logo`: a PNG, JPEG or WebP file's bytes (made into our own square WebP; refused as ImageRejected). */
    async add(raw: ThirdPartyInput, logo?: Buffer): Promise<RegisteredClient> {
      const input = thirdPartyInput.parse(raw);
      // The provider posts logout tokens there: refused now if it is not https or not a public address.
      const refused = input.backchannelLogoutUri && (await checkEgressTarget(input.backchannelLogoutUri, egress));
      if (refused) throw new OutsideAppUrlRefused(`backchannelLogoutUri: use a public https URL (refused: ${refused})`);
      const logoImage = logo ? await squareWebp(logo, CLIENT_LOGO_SIZE) : undefined;
      const clientId = `app_${randomToken(12)}`;
      const secret = input.public ? undefined : randomToken(32);
      const metadata = outsideAppMetadata(input, logoImage ? 1 : undefined);
      await options.validate?.({ ...metadata, client_id: clientId, ...(secret ? { client_secret: `sha256:${sha256(secret)}` } : {}) });
      await db.transaction(async (tx) => {
        await tx.insert(oauthClients).values({ clientId, secretHash: secret ? sha256(secret) : null, metadata });
        if (logoImage) await tx.insert(oauthClientLogos).values({ clientId, content: logoImage, version: 1 });
      });
      return { clientId, ...(secret ? { clientSecret: secret } : {}) };
    },

    /** A new secret; the old one stops working at once. A public client has none (PublicClientHasNoSecret). */
    async rotate(clientId: string): Promise<RegisteredClient | null> {
      const secret = randomToken(32);
      // One statement: a public client is never given a secret, not even for a moment.
      const rows = await db
        .update(oauthClients)
        .set({ secretHash: sha256(secret), updatedAt: sql`now()` })
        .where(and(eq(oauthClients.clientId, clientId), sql`${oauthClients.metadata}->>'token_endpoint_auth_method' is distinct from 'none'`))
        .returning({ clientId: oauthClients.clientId });
      if (rows.length > 0) return { clientId, clientSecret: secret };
      const [exists] = await db.select({ clientId: oauthClients.clientId }).from(oauthClients).where(eq(oauthClients.clientId, clientId));
      if (exists) throw new PublicClientHasNoSecret(clientId);
      return null;
    },

    /** An outside app as stored (disabled ones too); undefined when there is none. */
    async find(clientId: string): Promise<StoredOutsideApp | undefined> {
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
      return row && toStored(row);
    },

    /** Every outside app, newest first (disabled ones too). */
    async all(): Promise<StoredOutsideApp[]> {
      return (await db.select().from(oauthClients).orderBy(desc(oauthClients.createdAt))).map(toStored);
    },

    /**
     * Changes an app's settings: `change` gets its current metadata under a row lock and answers
     * the new one, so two edits at once apply one after the other and neither is lost. The
     * secret, logo and kind (public or confidential) are kept. Undefined when there is no such app.
     */
    async update(clientId: string, change: (current: PortalClientMetadata) => Omit<PortalClientMetadata, 'client_id'>): Promise<StoredOutsideApp | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).for('update');
        if (!row) return undefined;
        const current = toStored(row).metadata;
        const next = change(current);
        const metadata = {
          ...next,
          token_endpoint_auth_method: current.token_endpoint_auth_method,
          first_party: false,
          ...(current.portal_logo ? { portal_logo: current.portal_logo } : {}),
        };
        await options.validate?.({ ...metadata, client_id: clientId, ...(row.secretHash ? { client_secret: `sha256:${row.secretHash}` } : {}) });
        const [updated] = await tx.update(oauthClients).set({ metadata, updatedAt: sql`now()` }).where(eq(oauthClients.clientId, clientId)).returning();
        return toStored(updated!);
      });
    },

    /** Disables or enables an app; false when there is no such app. */
    async setDisabled(clientId: string, disabled: boolean): Promise<boolean> {
      const rows = await db
        .update(oauthClients)
        .set({ disabledAt: disabled ? sql`coalesce(${oauthClients.disabledAt}, now())` : null, updatedAt: sql`now()` })
        .where(eq(oauthClients.clientId, clientId))
        .returning({ clientId: oauthClients.clientId });
      return rows.length > 0;
    },

    /** A new logo for an app; false when there is no such outside app. */
    async setLogo(clientId: string, image: Buffer): Promise<boolean> {
      const content = await squareWebp(image, CLIENT_LOGO_SIZE);
      return db.transaction(async (tx) => {
        const [client] = await tx.select({ clientId: oauthClients.clientId }).from(oauthClients).where(eq(oauthClients.clientId, clientId)).for('update');
        if (!client) return false;
        const [logo] = await tx
          .insert(oauthClientLogos)
          .values({ clientId, content, version: 1 })
          .onConflictDoUpdate({ target: oauthClientLogos.clientId, set: { content, version: sql`${oauthClientLogos.version} + 1`, updatedAt: sql`now()` } })
          .returning({ version: oauthClientLogos.version });
        // The provider reads clients through the adapter: the version in the metadata reaches the pages.
        await tx
          .update(oauthClients)
          .set({ metadata: sql`${oauthClients.metadata} || jsonb_build_object('portal_logo', ${logo.version}::int)`, updatedAt: sql`now()` })
          .where(eq(oauthClients.clientId, clientId));
        return true;
      });
    },

    /** An app's logo as stored (a WebP), for the logo route. */
    async logo(clientId: string): Promise<{ content: Buffer; version: number; updatedAt: Date } | undefined> {
      const [row] = await db.select({ content: oauthClientLogos.content, version: oauthClientLogos.version, updatedAt: oauthClientLogos.updatedAt }).from(oauthClientLogos).where(eq(oauthClientLogos.clientId, clientId));
      return row;
    },

    async list(): Promise<Array<{ clientId: string; name: string; redirectUris: string[]; public: boolean; createdAt: Date }>> {
      const rows = await db.select().from(oauthClients).orderBy(desc(oauthClients.createdAt));
      return rows.map((row) => ({
        clientId: row.clientId,
        name: String(row.metadata.client_name ?? ''),
        redirectUris: (row.metadata.redirect_uris as string[] | undefined) ?? [],
        public: row.metadata.token_endpoint_auth_method === 'none',
        createdAt: row.createdAt,
      }));
    },

    /** The app with its logo, and every consent and token it was given, in one transaction. */
    async remove(clientId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const removed = await tx.delete(oauthClients).where(eq(oauthClients.clientId, clientId)).returning({ id: oauthClients.clientId });
        if (removed.length === 0) return false;
        await tx.delete(oidcModels).where(eq(oidcModels.clientId, clientId));
        return true;
      });
    },
  };
}
export type ThirdPartyClients = ReturnType<typeof thirdPartyClients>;
