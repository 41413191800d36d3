import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { randomToken } from '../../platform/crypto';
import { acrFor, portalIdentities, type PortalIdentity } from './portal-identity';

type ExtraParams = Extract<NonNullable<Configuration['extraParams']>, Record<string, unknown>>;

/**
 * Whether an authorization request asks nothing of the sign-in beyond a live portal session:
 * no prompt (login, consent, none, select_account), no max_age, no id_token_hint, no claims
 * and no acr_values, of its own or its client's defaults (assigned by then). Each of those is
 * the interaction route's to weigh (routes.ts): a fresh sign-in, an age, a second factor, a
 * named person, or an answer without any page.
 */
function asksOnlyForThePortalSession(params: KoaContextWithOIDC['oidc']['params']): boolean {
  return ['prompt', 'max_age', 'id_token_hint', 'claims', 'acr_values'].every((name) => params?.[name] === undefined);
}

/**
 * Single sign-on without the interaction's two requests. A browser signed in to the portal
 * whose provider session has no login yet (a first visit of an app, or a new browser session)
 * is signed in to the provider by the authorization request itself, as the interaction route
 * would have answered for that request: the portal session's person, amr, acr and time of
 * sign-in (remembered, as there). What follows is the provider's as before: the login policy
 * (login-policy.ts: the portal session must still be the one signed in), the app's grant and
 * consent (an outside app without one goes to the consent page through an interaction), and
 * the link of the provider session to the portal session (provider-middleware.ts), so that
 * ending the portal session ends it. Any other request goes through the interaction unchanged.
 *
 * oidc-provider calls each `extraParams` validator after it has validated the authorization
 * request (client, redirect URI, PKCE, prompt, max_age, claims, id_token_hint, a request
 * object's and the client's defaults merged) and before it reads the session's account
 * (lib/actions/authorization/index.js: checkExtraParams, then loadAccount), whether or not the
 * parameter was sent: the one place where a login can be made with the request's parameters
 * settled. It is registered under `login_hint`, a parameter the provider accepts anyway, so
 * that no new parameter is accepted; its value is not read.
 */
export function portalSignOn(ctx: KoaContextWithOIDC): void {
  const { oidc } = ctx;
  if (oidc.route !== 'authorization') return;
  const session = oidc.session;
  if (!session || session.accountId) return;
  const portal = portalIdentities.get(ctx.req);
  if (!portal || !asksOnlyForThePortalSession(oidc.params)) return;
  // A login on a session this browser already had gets a new identifier, as the provider's resume does.
  if (!(session as { new?: boolean }).new) session.resetIdentifier();
  loginFromPortal(session, portal);
}

/** The provider's `extraParams`: portalSignOn's hook (see there). */
export const portalSignOnParams: ExtraParams = {
  login_hint: (ctx) => portalSignOn(ctx),
};

type ProviderSession = NonNullable<KoaContextWithOIDC['oidc']['session']>;

/** The provider session's login from the portal session: its person, amr, acr and time of sign-in (remembered). */
function loginFromPortal(session: ProviderSession, portal: PortalIdentity): void {
  session.loginAccount({
    accountId: portal.userId,
    amr: portal.amr,
    acr: acrFor(portal.amr),
    loginTs: Math.floor(portal.authTime.getTime() / 1000),
    transient: false,
  });
}

/** The portal session a provider session's uid is linked to (oidc_session_links), if any. */
export type LinkedPortalSession = (sessionUid: string) => Promise<string | undefined>;

/**
 * A provider session of the person stands on the portal session it is linked to. When they
 * signed in to the portal again in this browser (the session before went idle or was signed in
 * on top of, an app's prompt=login or step-up) the provider's cookie session stays, and its uid
 * with it (the provider's resume renews only the cookie's id): linked to the new portal session,
 * the tokens issued on it before would end with that one and not with their own. Company SSO's
 * sweep, ending the password session they were got through, would leave them while the member
 * keeps a session the IdP signed in; revoking the old session on the device-activity page would
 * leave them too. So the provider session starts over on this portal session, with a new uid, no
 * apps signed in yet and this session's login; the one before is kept under its uid (no cookie
 * names it), where ending its portal session finds it, tells its apps (back-channel logout) and
 * ends its tokens.
 *
 * Called from loadExistingGrant (provider.ts): the one step of both an authorization request
 * and an interaction's resume that runs once the login is settled (portal-sign-on.ts, the
 * resume) and before the checks of the login and anything issued. A provider session not linked
 * yet was signed in by this very request; the middleware links it (provider-middleware.ts).
 */
export async function standOnThisPortalSession(ctx: KoaContextWithOIDC, linkedPortalSession: LinkedPortalSession): Promise<void> {
  const session = ctx.oidc.session;
  const portal = portalIdentities.get(ctx.req);
  if (!session?.accountId || !portal || session.accountId !== portal.userId) return;
  // Made by this very request (a first authorization in this browser): a new uid, linked to nothing yet.
  if ((session as { new?: boolean }).new) return;
  const linked = await linkedPortalSession(session.uid);
  if (linked === undefined || linked === portal.sessionId) return;
  // The provider's types give Session no constructor arguments; it takes its payload (models/session.js).
  const Session = ctx.oidc.provider.Session as unknown as new (payload: object) => { save(ttl: number): Promise<unknown> };
  const before = new Session({
    jti: randomToken(),
    uid: session.uid,
    accountId: session.accountId,
    acr: session.acr,
    amr: session.amr,
    loginTs: session.loginTs,
    transient: session.transient,
    authorizations: session.authorizations,
  });
  await before.save(Math.max(1, (session.exp ?? 0) - Math.floor(Date.now() / 1000)));
  session.uid = randomToken();
  session.authorizations = {};
  // The resume renewed the cookie's id already: renewed again, the row it replaced would stay.
  if (!(session as { oldId?: string }).oldId) session.resetIdentifier();
  loginFromPortal(session, portal);
}
