import { isPrivateUseRedirect, loginPathFor, oauthEndpoints, paths } from '@portal/contracts';
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import Provider from 'oidc-provider';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/http/route';
import { sendVersionedImage } from '../../platform/http/versioned-image';
import { SQUARE_IMAGE_CONTENT_TYPE } from '../../platform/square-image';
import { caller, sessionCookieClearings, sessionCookieName, type SessionService } from '../sessions';
import { simplePage } from './pages';
import type { CurrentProvider } from './current-provider';
import { ACR_MULTI, acrFor, INTERACTION_PATH, multiFactorRequired, OIDC_ROUTES, portalIdentities, type PortalIdentity } from './provider';
import type { Approver, OAuthService } from './service';
import { FORM_BODY_LIMIT, installTokenEntry } from './token-entry';

/**
 * The portal session a browser presents (its cookie only: a bearer header here is an access token or a client's),
 * of an account the API's guard would accept too: not being deleted, not purged, not locked by an operator.
 */
async function readPortal(request: FastifyRequest, config: Config, sessions: SessionService): Promise<PortalIdentity | null> {
  const token = request.cookies[sessionCookieName(request, config)];
  if (!token) return null;
  const found = await sessions.authenticate(token);
  if (!found || found.user.deletionRequestedAt || found.user.purgedAt || found.user.lockedAt) return null;
  return {
    sessionId: found.session.id,
    userId: found.user.id,
    amr: found.session.amr ?? [],
    authTime: found.session.createdAt,
    clearCookies: sessionCookieClearings(request, config),
    signOut: async () => {
      await sessions.revoke(found.user.id, found.session.id);
    },
  };
}

function sendPage(reply: FastifyReply, status: number, title: string, message: string) {
  const page = simplePage(title, message);
  return reply.status(status).header('content-security-policy', page.csp).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page.html);
}

/**
 * An answer to a desktop app's private-scheme redirect URI goes through `/callback-app`, which
 * hands it to the app and keeps an "Open the desktop app" link in case the browser does not
 * (a bare redirect to an unknown scheme leaves the person on a blank page). In the fragment,
 * so the code never reaches a server log, with the app's client_id: the page opens the target
 * only when it is one of that app's registered redirect URIs (appRedirects), since anyone can
 * link to /callback-app with a scheme of their choosing.
 */
function handAppRedirectsToCallbackApp(response: ServerResponse): void {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name, value) => {
    if (name.toLowerCase() === 'location' && typeof value === 'string' && isPrivateUseRedirect(value)) {
      // The provider redirects inside its request, whose context names the app.
      const clientId = Provider.ctx?.oidc?.client?.clientId ?? '';
      return setHeader(name, `${paths.callbackApp}#${new URLSearchParams({ to: value, client_id: clientId }).toString()}`);
    }
    return setHeader(name, value);
  };
}

/**
 * The provider inside Fastify: its endpoints get the raw request (with the body Fastify
 * parsed) and write the raw response themselves; the security headers set so far go with it.
 * Also the interaction route, where the portal session becomes the provider's login.
 */
export function oauthProviderRoutes(config: Config, sessions: SessionService, provider: CurrentProvider): FastifyPluginAsync {
  // The provider's Koa handler, made once per provider (a change of signing keys makes a new provider).
  let handler: { of: Provider; callback: ReturnType<Provider['callback']> } | undefined;
  const providerCallback = () => {
    const current = provider();
    return (handler?.of === current ? handler : (handler = { of: current, callback: current.callback() })).callback;
  };

  async function handOver(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    portalIdentities.set(request.raw, await readPortal(request, config, sessions));
    if (request.body !== undefined) (request.raw as { body?: unknown }).body = request.body;
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    handAppRedirectsToCallbackApp(reply.raw);
    await providerCallback()(request.raw, reply.raw);
  }

  return async (app) => {
    // Plain calls of the token endpoints skip Fastify (token-entry.ts); the rest come here.
    installTokenEntry(app, config, providerCallback);
    // The provider reads form bodies as text; Fastify only has to accept them.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => done(null, body));

    app.get('/.well-known/openid-configuration', { schema: { hide: true } }, handOver);
    // OPTIONS: the provider answers its endpoints' preflights (clientBasedCORS), not the portal's guard.
    app.route({ method: ['GET', 'POST', 'OPTIONS'], url: '/oidc/*', schema: { hide: true }, handler: handOver });
    app.get(`${OIDC_ROUTES.authorization}/:uid`, { schema: { hide: true } }, handOver);
    app.route({
      method: ['GET', 'POST'],
      url: OIDC_ROUTES.authorization,
      schema: { hide: true },
      handler: async (request, reply) => {
        // `/o/authorize?interaction=<uid>` is the consent page (the web app); with client_id it is an authorization request.
        const query = request.query as Record<string, unknown>;
        if (request.method === 'GET' && typeof query.interaction === 'string' && query.client_id === undefined) return reply.callNotFound();
        return handOver(request, reply);
      },
    });

    /**
     * Where the provider sends the browser when it needs the person: a signed-in person goes
     * straight through (single sign-on) unless the app asked for a fresh sign-in (`prompt=login`,
     * `max_age`); anyone else signs in on our pages and comes back here. Consent for an outside
     * app is the consent page; the products never ask (loadExistingGrant).
     */
    app.get(`${INTERACTION_PATH}/:uid`, { schema: { hide: true } }, async (request, reply) => {
      const { uid } = request.params as { uid: string };
      // The interaction of this browser's own authorization request (its signed `_interaction`
      // cookie), never one named only by the address: a link to someone else's interaction, opened
      // by a person signed in here, must not record their sign-in on it.
      const interaction = /^[\w-]{10,64}$/.test(uid) ? await provider().interactionDetails(request.raw, reply.raw).catch(() => undefined) : undefined;
      if (interaction?.uid !== uid) return sendPage(reply, 400, 'This sign-in request has expired', 'Go back to the app and start again.');
      reply.header('cache-control', 'no-store');
      const portal = await readPortal(request, config, sessions);
      const here = `${INTERACTION_PATH}/${uid}`;

      if (interaction.prompt.name === 'login') {
        const askedFresh = interaction.prompt.reasons.includes('login_prompt');
        const maxAge = interaction.params.max_age === undefined ? undefined : Number(interaction.params.max_age);
        const authTime = portal?.authTime.getTime() ?? 0;
        // iat is in whole seconds: a sign-in counts as made for this request only from the next second on.
        const signedInForThisRequest = authTime >= (interaction.iat + 1) * 1000;
        const freshEnough =
          portal !== null &&
          (!askedFresh || signedInForThisRequest) &&
          (maxAge === undefined || !Number.isFinite(maxAge) || Date.now() - authTime <= maxAge * 1000);
        const factorsShort = portal !== null && multiFactorRequired(interaction.params) && acrFor(portal.amr) !== ACR_MULTI;
        if (portal && freshEnough && factorsShort && signedInForThisRequest) {
          // Signed in again for this request and still one factor (no second step set up): the app
          // learns its requirement is unmet; it never gets a one-factor login labelled otherwise.
          interaction.result = {
            error: 'unmet_authentication_requirements',
            error_description: 'This app asks for two-step verification, which is not turned on for this account',
          };
          await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
          return reply.redirect(interaction.returnTo);
        }
        if (portal && freshEnough && !factorsShort) {
          interaction.result = {
            login: { accountId: portal.userId, amr: portal.amr, acr: acrFor(portal.amr), ts: Math.floor(authTime / 1000), remember: true },
          };
          await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
          return reply.redirect(interaction.returnTo);
        }
        // Signed in but too long ago, with too few factors, or the app insists: sign in again on our
        // pages (which let a signed-in person through with prompt=login, and ask their second step).
        const login = loginPathFor(here);
        return reply.redirect(portal ? `${login}&prompt=login` : login);
      }

      const accountId = interaction.session?.accountId ?? interaction.lastSubmission?.login?.accountId;
      if (!portal || portal.userId !== accountId) return reply.redirect(loginPathFor(here));
      return reply.redirect(`${paths.oauthAuthorize}?interaction=${encodeURIComponent(uid)}`);
    });
  };
}

function approverOf(request: FastifyRequest): Approver {
  const { user, session } = caller(request);
  return { userId: user.id, email: user.email, amr: session?.amr ?? [], authTime: session?.createdAt ?? new Date(0) };
}

/** The `/v3` calls of the consent page, Connected apps and the device sign-in page. */
export function oauthRoutes(oauth: OAuthService): FastifyPluginAsync {
  return async (app) => {
    route(app, oauthEndpoints.consentRequest, async (request) => oauth.consentRequest(request.params.uid, approverOf(request)));
    route(app, oauthEndpoints.consentDecision, async (request) => oauth.consentDecision(request.params.uid, approverOf(request), request.body.allow));
    route(app, oauthEndpoints.connectedApps, async (request) => ({ apps: await oauth.connectedApps(caller(request).user.id) }));
    route(app, oauthEndpoints.revokeConnectedApp, async (request) => {
      await oauth.revokeApp(caller(request).user.id, request.params.client_id);
    });
    route(app, oauthEndpoints.appLogo, async (request, reply) => {
      const logo = await oauth.appLogo(request.params.client_id);
      if (!logo) throw new AppError('not_found');
      return sendVersionedImage(request, reply, { ...logo, contentType: SQUARE_IMAGE_CONTENT_TYPE, etag: `"${logo.version}"` });
    });
    route(app, oauthEndpoints.appRedirects, async (request) => oauth.appRedirects(request.params.client_id));
    route(app, oauthEndpoints.deviceRequest, async (request) => oauth.deviceRequest(request.body.user_code, approverOf(request)));
    route(app, oauthEndpoints.deviceDecision, async (request) => oauth.deviceDecision(request.body.user_code, approverOf(request), request.body.allow));
  };
}
