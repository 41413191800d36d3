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
 * A provider session of the same person that stands on another portal session starts over on
 * this one, whatever the request asks (startOverOnThisPortalSession).
 *
 * oidc-provider calls each `extraParams` validator after it has validated the authorization
 * request (client, redirect URI, PKCE, prompt, max_age, claims, id_token_hint, a request
 * object's and the client's defaults merged) and before it reads the session's account
 * (lib/actions/authorization/index.js: checkExtraParams, then loadAccount), whether or not the
 * parameter was sent: the one place where a login can be made with the request's parameters
 * settled. It is registered under `login_hint`, a parameter the provider accepts anyway, so
 * that no new parameter is accepted; its value is not read.
 */
export async function portalSignOn(ctx: KoaContextWithOIDC, linkedPortalSession: LinkedPortalSession): Promise<void> {
  const { oidc } = ctx;
  if (oidc.route !== 'authorization') return;
  const session = oidc.session;
  const portal = portalIdentities.get(ctx.req);
  if (!session || !portal) return;
  if (session.accountId) {
    // Another person's login: the login policy asks for a sign-in (login-policy.ts).
    if (session.accountId === portal.userId) await startOverOnThisPortalSession(session, portal, linkedPortalSession);
    return;
  }
  if (!asksOnlyForThePortalSession(oidc.params)) return;
  // A login on a session this browser already had gets a new identifier, as the provider's resume does.
  if (!(session as { new?: boolean }).new) session.resetIdentifier();
  loginFromPortal(session, portal);
}

/** The portal session a provider session's uid is linked to (oidc_session_links), if any. */
export type LinkedPortalSession = (sessionUid: string) => Promise<string | undefined>;

type ProviderSession = NonNullable<KoaContextWithOIDC['oidc']['session']>;

function loginFromPortal(session: ProviderSession, portal: PortalIdentity): void {
  session.loginAccount({
    accountId: portal.userId,
    amr: portal.amr,
    acr: acrFor(portal.amr),
    loginTs: Math.floor(portal.authTime.getTime() / 1000),
    transient: false,
  });
}

/**
 * The person signed in to the portal again in this browser (the portal session before went idle
 * or expired, its cookie replaced) and the provider's cookie session of theirs stayed: it stands
 * on the portal session before, whose link names its uid. Linked to this one instead, the tokens
 * issued on it before would end with this session and not with their own: company SSO's sweep
 * ending the password session they were got through would leave them while the person keeps a
 * session the IdP signed in. So it starts over as a new provider session (a new uid and cookie,
 * no apps signed in yet) with this portal session's login, as portalSignOn makes for a browser
 * without one; what was issued before keeps the old uid and its link, and ends with that session.
 */
async function startOverOnThisPortalSession(session: ProviderSession, portal: PortalIdentity, linkedPortalSession: LinkedPortalSession): Promise<void> {
  if ((await linkedPortalSession(session.uid)) === portal.sessionId) return;
  session.uid = randomToken();
  session.authorizations = {};
  session.resetIdentifier();
  loginFromPortal(session, portal);
}

/** The provider's `extraParams`: portalSignOn's hook (see there), with the provider session's link read from the database. */
export const portalSignOnParams = (linkedPortalSession: LinkedPortalSession): ExtraParams => ({
  login_hint: (ctx) => portalSignOn(ctx, linkedPortalSession),
});
