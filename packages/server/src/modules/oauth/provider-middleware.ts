import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { SessionLink } from './request-writes';
import { logoutFormTargets, SELF_POSTING_LOGOUT_CSP, withFormTargets } from './logout-targets';
import { OIDC_ROUTES } from './oidc-routes';
import { portalIdentities } from './portal-identity';

/** An OAuth error answer in place of what the provider had answered (RFC 6749 section 5.2). */
function answerError(ctx: KoaContextWithOIDC, error: InstanceType<typeof errors.OIDCProviderError>): void {
  ctx.status = error.statusCode;
  ctx.set('cache-control', 'no-store');
  ctx.body = { error: error.error, error_description: error.error_description };
}

/**
 * The provider session an authorization signed the person into, and the portal session it
 * stands on: ending the portal session ends the provider session and its tokens (service.ts).
 */
function sessionLink(ctx: KoaContextWithOIDC): SessionLink | undefined {
  const route = ctx.oidc?.route;
  const portal = portalIdentities.get(ctx.req);
  const session = ctx.oidc?.session;
  if (!portal || (route !== 'resume' && route !== 'authorization') || session?.accountId !== portal.userId || !session.uid) return undefined;
  return { sessionUid: session.uid, portalSessionId: portal.sessionId };
}

/**
 * What each provider request does around the provider: its held writes made before the answer
 * (adapter.ts) with the link of an authorization's provider session to its portal session,
 * the logout pages' CSP, and RP-initiated logout signing the person out of the portal too.
 */
export function installPortalMiddleware(
  provider: Provider,
  deps: {
    flushRequest: (request: object) => Promise<void>;
    linkSession: (request: object, link: SessionLink) => void;
    log: { error(object: unknown, message: string): void };
  },
): void {
  provider.use(async (ctx: KoaContextWithOIDC, next) => {
    if (ctx.path === OIDC_ROUTES.end_session) ctx.set('content-security-policy', SELF_POSTING_LOGOUT_CSP);
    try {
      await next();
      const link = sessionLink(ctx);
      if (link) deps.linkSession(ctx, link);
    } finally {
      // The request's held writes, before Koa sends the response this middleware is inside of.
      // A failure answers 500 with no tokens: nothing reaches a client that is not stored.
      await deps.flushRequest(ctx).catch((error: unknown) => {
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
    // RP-initiated logout that the person confirmed signs them out of the portal too.
    if (portal && route === 'end_session_confirm' && ctx.oidc.params?.logout) {
      await portal.signOut();
      ctx.append('set-cookie', portal.clearCookies);
    }
  });
}
