import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { acrFor, portalIdentities } from './portal-identity';

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
  session.loginAccount({
    accountId: portal.userId,
    amr: portal.amr,
    acr: acrFor(portal.amr),
    loginTs: Math.floor(portal.authTime.getTime() / 1000),
    transient: false,
  });
}

/** The provider's `extraParams`: portalSignOn's hook (see there). */
export const portalSignOnParams: ExtraParams = {
  login_hint: (ctx) => portalSignOn(ctx),
};
