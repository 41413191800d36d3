import { isPrivateUseRedirect, type oauthEndpoints } from '@portal/contracts';
import type { z } from 'zod';
import { and, desc, eq, inArray, isNull, ne, not, or, sql } from 'drizzle-orm';
import type Provider from 'oidc-provider';
import type { Database } from '../../db/client';
import { oidcModels, oidcSessionLinks, sessions as portalSessions } from '../../db/schema';
import { AppError } from '../../platform/errors';
import { limits, rateKey, rateLimited, type RateLimiter } from '../../platform/rate-limit';
import type { SessionsEnded } from '../sessions';
import type { CurrentProvider } from './current-provider';
import { clientLogoPath, thirdPartyClients, type PortalClientMetadata } from './clients';
import { answerDeviceCode, takeDeviceCode } from './device-code-answer';
import { acrFor } from './provider';
import { forgetKeptTokens } from './provider-resources';
import { afterCommit } from '../../db/scoped-transaction';

/** The signed-in person answering a consent or a device code: who, and how their session authenticated. */
export interface Approver {
  userId: string;
  email: string;
  amr: string[];
  authTime: Date;
}

type OAuthApp = z.infer<typeof oauthEndpoints.oauthAppSchema>;
type ConnectedApp = z.infer<typeof oauthEndpoints.connectedAppSchema>;
type ProviderClient = NonNullable<Awaited<ReturnType<Provider['Client']['find']>>>;

function appOf(client: ProviderClient): OAuthApp {
  const metadata = client.metadata() as PortalClientMetadata;
  return {
    client_id: client.clientId,
    name: client.clientName ?? client.clientId,
    logo_uri: metadata.portal_logo ? clientLogoPath(client.clientId, metadata.portal_logo) : null,
    client_uri: client.clientUri ?? null,
    first_party: metadata.first_party === true,
  };
}

/** Scope values in the order the page words them. */
const SCOPE_ORDER = ['openid', 'profile', 'email', 'plan', 'offline_access'];
const ordered = (scopes: Iterable<string>) => [...new Set(scopes)].sort((a, b) => SCOPE_ORDER.indexOf(a) - SCOPE_ORDER.indexOf(b));

/** Models issued to an app for a person; the grant (their consent) is kept unless the person revokes the app. */
const TOKEN_MODELS = ['AccessToken', 'RefreshToken', 'AuthorizationCode', 'DeviceCode', 'ClientCredentials'];

/**
 * What the portal's pages do with the provider: consent, Connected apps, device sign-in, and
 * the end of a portal session (its provider sessions, their tokens, back-channel logout).
 */
export function createOAuthService(deps: {
  db: Database;
  provider: CurrentProvider;
  limiter: RateLimiter;
  log: { warn(object: unknown, message: string): void };
}) {
  const { db, provider, limiter } = deps;
  /**
   * This node forgets the tokens it keeps once a deletion of some commits: inside an operator's
   * action (one transaction with its audit row) a read before the commit still finds them valid,
   * and would be kept again if they were forgotten earlier.
   */
  const forgetKeptTokensOnceCommitted = () => afterCommit(async () => forgetKeptTokens(provider()));

  async function waitingInteraction(uid: string, userId: string) {
    const { Interaction, Client } = provider();
    const interaction = await Interaction.find(uid);
    // Only the person the provider is asking about may answer: the login result names them.
    if (!interaction || interaction.prompt.name !== 'consent' || interaction.result) throw new AppError('oauth.request_expired');
    const accountId = interaction.session?.accountId ?? interaction.lastSubmission?.login?.accountId;
    if (accountId !== userId) throw new AppError('oauth.request_expired');
    const client = await Client.find(String(interaction.params.client_id));
    if (!client) throw new AppError('oauth.request_expired');
    return { interaction, client };
  }

  async function sendBackchannelLogout(accountId: string, authorizations: Record<string, { sid?: string }>): Promise<void> {
    await Promise.all(
      Object.entries(authorizations).map(async ([clientId, { sid }]) => {
        const client = await provider().Client.find(clientId);
        if (!client?.backchannelLogoutUri) return;
        await (client as unknown as { backchannelLogout(sub: string, sid: string): Promise<void> }).backchannelLogout(accountId, sid ?? '').catch((error: unknown) => deps.log.warn({ err: error, client: clientId }, 'back-channel logout failed'));
      }),
    );
  }

  const outsideApps = thirdPartyClients(db);

  return {
    /** An app's private-scheme redirect URIs (sign-in and post-logout): where /callback-app may hand the browser for it. */
    async appRedirects(clientId: string): Promise<{ redirect_uris: string[] }> {
      const client = await provider().Client.find(clientId);
      if (!client) throw new AppError('not_found');
      const registered = [...(client.redirectUris ?? []), ...(client.postLogoutRedirectUris ?? [])];
      return { redirect_uris: registered.filter(isPrivateUseRedirect) };
    },

    /** An outside app's logo as stored, for the logo route. */
    appLogo: (clientId: string) => outsideApps.logo(clientId),

    async consentRequest(uid: string, approver: Approver) {
      const { interaction, client } = await waitingInteraction(uid, approver.userId);
      const details = interaction.prompt.details as { missingOIDCScope?: string[] };
      const requested = String(interaction.params.scope ?? '').split(' ').filter(Boolean);
      return { app: appOf(client), scopes: ordered(details.missingOIDCScope ?? requested), email: approver.email };
    },

    /**
     * Records the answer on the interaction and answers where the browser goes: back to the
     * provider, which redirects to the app with a code (Allow) or `access_denied` (Deny).
     */
    async consentDecision(uid: string, approver: Approver, allow: boolean): Promise<{ redirect_to: string }> {
      const { interaction, client } = await waitingInteraction(uid, approver.userId);
      if (!allow) {
        interaction.result = { error: 'access_denied', error_description: 'The person denied the request' };
      } else {
        const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        const { Grant } = provider();
        const existing = interaction.grantId ? await Grant.find(interaction.grantId) : undefined;
        const grant = existing ?? new Grant({ accountId: approver.userId, clientId: client.clientId });
        if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
        if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
        const grantId = await grant.save();
        interaction.result = { ...interaction.lastSubmission, consent: { grantId } };
      }
      await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
      return { redirect_to: interaction.returnTo };
    },

    /** The apps a person allowed, newest first (first-party products are not listed: nobody consented to them). */
    async connectedApps(userId: string): Promise<ConnectedApp[]> {
      const rows = await db
        .select({ clientId: oidcModels.clientId, payload: oidcModels.payload })
        .from(oidcModels)
        .where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.accountId, userId)))
        .orderBy(desc(oidcModels.expiresAt));
      const apps = new Map<string, ConnectedApp>();
      for (const row of rows) {
        if (!row.clientId || apps.has(row.clientId)) continue;
        const client = await provider().Client.find(row.clientId);
        if (!client) continue;
        const app = appOf(client);
        if (app.first_party) continue;
        const payload = row.payload as { iat?: number; openid?: { scope?: string } };
        apps.set(row.clientId, {
          ...app,
          scopes: ordered((payload.openid?.scope ?? '').split(' ').filter(Boolean)),
          granted_at: new Date((payload.iat ?? 0) * 1000).toISOString(),
        });
      }
      return [...apps.values()];
    },

    /** Revokes an app: every grant the person gave it and every token issued from them. */
    async revokeApp(userId: string, clientId: string): Promise<void> {
      const grants = await db
        .select({ id: oidcModels.id })
        .from(oidcModels)
        .where(and(eq(oidcModels.model, 'Grant'), eq(oidcModels.accountId, userId), eq(oidcModels.clientId, clientId)));
      if (grants.length === 0) throw new AppError('oauth.app_not_found');
      const ids = grants.map((grant) => grant.id);
      await db.delete(oidcModels).where(inArray(oidcModels.grantId, ids));
      await db.delete(oidcModels).where(and(eq(oidcModels.model, 'Grant'), inArray(oidcModels.id, ids)));
      // Anything of this app's for this person that no grant id ties (belt and braces).
      await db
        .delete(oidcModels)
        .where(and(eq(oidcModels.accountId, userId), eq(oidcModels.clientId, clientId), inArray(oidcModels.model, TOKEN_MODELS)));
      // Rare enough that this node forgets every kept token rather than finding these ones.
      await forgetKeptTokensOnceCommitted();
    },

    /** The app behind a device sign-in code; wrong codes are counted per account. */
    async deviceRequest(userCode: string, approver: Approver) {
      const { code, client } = await this.findDeviceCode(userCode, approver);
      return { app: appOf(client), scopes: ordered(String(code.params?.scope ?? '').split(' ').filter(Boolean)), user_code: userCode.toUpperCase() };
    },

    async findDeviceCode(userCode: string, approver: Approver) {
      const key = rateKey(limits.deviceCodeFailuresPerAccount, approver.userId);
      rateLimited(await limiter.status(key, limits.deviceCodeFailuresPerAccount));
      const normalized = userCode.toUpperCase().replace(/\W/g, '');
      const { DeviceCode, Client } = provider();
      const code = await DeviceCode.findByUserCode(normalized);
      const client = code && !code.isExpired && !code.accountId && !code.error ? await Client.find(code.clientId ?? '') : undefined;
      if (!code || !client) {
        await limiter.consume(key, limits.deviceCodeFailuresPerAccount);
        throw new AppError('1002');
      }
      return { code, client };
    },

    /**
     * Approves (or refuses) a device sign-in as the provider's own device flow would: the
     * device code gets the person, how they authenticated and a grant of the requested scopes,
     * and the app's next poll of the token endpoint receives its tokens. The person first takes
     * the code in one conditional statement (takeDeviceCode): when two people answer one code
     * at once, one takes it and the other is told the code is not valid, before any grant is made.
     */
    async deviceDecision(userCode: string, approver: Approver, allow: boolean): Promise<{ approved: boolean }> {
      const { code, client } = await this.findDeviceCode(userCode, approver);
      const jti = String(code.jti);
      if (!(await takeDeviceCode(db, jti, approver.userId))) throw new AppError('1002');
      if (!allow) {
        await answerDeviceCode(db, jti, approver.userId, { error: 'access_denied', errorDescription: 'The person refused the sign-in' });
        return { approved: false };
      }
      const scope = String(code.params?.scope ?? 'openid');
      const { Grant } = provider();
      const grant = new Grant({ accountId: approver.userId, clientId: client.clientId });
      grant.addOIDCScope(scope);
      const grantId = await grant.save();
      await answerDeviceCode(db, jti, approver.userId, {
        accountId: approver.userId,
        acr: acrFor(approver.amr),
        amr: approver.amr,
        authTime: Math.floor(approver.authTime.getTime() / 1000),
        grantId,
        scope,
      });
      return { approved: true };
    },

    /**
     * A portal session ended: the provider sessions that stood on it end, with every token
     * issued in them, and the apps that had a back-channel logout URI hear of it. When the
     * whole account was signed out (a password reset, a deletion), every token of the person
     * ends too (an app's device sign-in included); their consents stay until revoked.
     */
    async portalSessionsEnded(ended: SessionsEnded): Promise<void> {
      if (ended.sessionIds.length > 0) {
        const links = await db
          .select({ uid: oidcSessionLinks.sessionUid })
          .from(oidcSessionLinks)
          .where(inArray(oidcSessionLinks.portalSessionId, ended.sessionIds));
        const uids = links.map((link) => link.uid);
        if (uids.length > 0) {
          const sessions = await db
            .select({ payload: oidcModels.payload })
            .from(oidcModels)
            .where(and(eq(oidcModels.model, 'Session'), inArray(oidcModels.uid, uids)));
          await db.delete(oidcModels).where(inArray(oidcModels.sessionUid, uids));
          await db.delete(oidcSessionLinks).where(inArray(oidcSessionLinks.sessionUid, uids));
          // Told once the ending commits: inside an operator's action (one transaction with its
          // audit row) an app told before a rollback signs out a person whose session stands, and
          // the transaction would wait on apps' answers over the network.
          await afterCommit(async () => {
            for (const { payload } of sessions) {
              const session = payload as { accountId?: string; authorizations?: Record<string, { sid?: string }> };
              if (session.accountId && session.authorizations) await sendBackchannelLogout(session.accountId, session.authorizations);
            }
          });
        }
      }
      if (ended.everySession) {
        await db.delete(oidcModels).where(and(eq(oidcModels.accountId, ended.userId), ne(oidcModels.model, 'Grant'), inArray(oidcModels.model, [...TOKEN_MODELS, 'Session'])));
      } else if (ended.unlessSsoSince) {
        // Company SSO now binds the person: what an app got outside any live portal session ends
        // unless company SSO signed it in since `unlessSsoSince`. That is a device sign-in (one
        // grant per approval, no provider session), and tokens whose portal session is gone (the
        // retention sweep deleted its row, and the link with it) while the app kept refreshing.
        // Tokens on a live session's link stand with that session, which the sweep kept. A
        // sign-in's refresh token or device code tells (an access token carries no amr): a device
        // sign-in by its grant, a browser's by its provider session (a product keeps one grant
        // for all of a person's browsers, so a grant proves nothing of another session's
        // sign-in). What no row proves ends, on the safe side.
        const since = Math.floor(ended.unlessSsoSince.getTime() / 1000);
        const outsideLiveSessions = or(
          isNull(oidcModels.sessionUid),
          sql`not exists (select 1 from ${oidcSessionLinks} join ${portalSessions} on ${portalSessions.id} = ${oidcSessionLinks.portalSessionId}
                          where ${oidcSessionLinks.sessionUid} = ${oidcModels.sessionUid} and ${portalSessions.revokedAt} is null)`,
        );
        const provedBySso = sql`exists (
          select 1 from ${oidcModels} proof
          where proof.account_id = ${ended.userId} and proof.model in ('RefreshToken', 'DeviceCode')
            and proof.payload -> 'amr' @> '["sso"]'::jsonb and (proof.payload ->> 'authTime')::bigint >= ${since}
            and (proof.session_uid = ${oidcModels.sessionUid}
                 or (${oidcModels.sessionUid} is null and proof.session_uid is null and proof.grant_id = ${oidcModels.grantId})))`;
        await db
          .delete(oidcModels)
          .where(and(eq(oidcModels.accountId, ended.userId), outsideLiveSessions, inArray(oidcModels.model, TOKEN_MODELS), not(provedBySso)));
      }
      await forgetKeptTokensOnceCommitted();
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
