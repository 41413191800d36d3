import { companySsoEndpoints, companySsoSamlParamsSchema } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller, cookieIsSecure, setSessionCookies } from '../sessions';
import { LinkRequired } from './accounts';
import { SSO_LINK_COOKIE, SSO_LINK_MAX_AGE, SSO_STATE_COOKIE, SSO_STATE_MAX_AGE } from './sealed';
import type { CompanySsoService } from './service';

/** The SAML ACS's path prefix: exempt from the cross-site guard (the IdP's page posts it), like the social form_post callback. */
export const SAML_ACS_PREFIX = '/v3/_auth/sso/saml/';

export function companySsoRoutes(config: Config, companySso: CompanySsoService): FastifyPluginAsync {
  return async (app) => {
    const stateCookie = (request: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: cookieIsSecure(request, config) });

    route(app, companySsoEndpoints.start, async (request, reply) => {
      const started = await companySso.start(request.body, requestOrigin(request, config));
      if (started.cookie) reply.setCookie(SSO_STATE_COOKIE, started.cookie, { ...stateCookie(request), maxAge: SSO_STATE_MAX_AGE });
      reply.header('cache-control', 'no-store');
      return { url: started.url, protocol: started.protocol };
    });

    route(
      app,
      companySsoEndpoints.finish,
      async (request, reply) => {
        // One use: whatever the answer, the started sign-in is over.
        reply.clearCookie(SSO_STATE_COOKIE, stateCookie(request));
        let result;
        try {
          result = await companySso.finish(request.body, request.cookies[SSO_STATE_COOKIE], requestOrigin(request, config));
        } catch (error) {
          // An existing account the IdP may not link: the link waits in this browser for its owner to confirm.
          if (error instanceof LinkRequired) reply.setCookie(SSO_LINK_COOKIE, error.sealed, { ...stateCookie(request), maxAge: SSO_LINK_MAX_AGE });
          throw error;
        }
        if ('token' in result) {
          setSessionCookies(reply, request, config, result.token, result.user.fullName);
          return { token: result.token };
        }
        return result;
      },
      { config: { waitsForIdentityChanges: false } },
    );

    // Linking an existing account: its owner, signed in their own way, sees the link and confirms it.
    route(app, companySsoEndpoints.pendingLink, async (request) => companySso.pendingLink(caller(request).user, request.cookies[SSO_LINK_COOKIE]));
    route(app, companySsoEndpoints.confirmLink, async (request, reply) => {
      const linked = await companySso.confirmLink(caller(request).user, request.cookies[SSO_LINK_COOKIE]);
      reply.clearCookie(SSO_LINK_COOKIE, stateCookie(request));
      return linked;
    });

    // The organization's SSO settings: owners and admins only (checked on every call); changing
    // the identity provider, require-SSO or a domain's proof asks for a recent proof of identity.
    const organizationOf = (request: FastifyRequest) => companySso.administeredBy(caller(request).user);
    // The admin and where from: the audit log's entry of each change names both.
    const me = (request: FastifyRequest) => {
      const { user, session } = caller(request);
      // How the session was signed in, never the session itself (its token hash stays here).
      return { ...user, origin: requestOrigin(request, config), session: { amr: session.amr, createdAt: session.createdAt } };
    };
    const settings = companySso.settings;
    route(app, companySsoEndpoints.settings, async (request) => settings.view(await organizationOf(request), me(request)));
    route(app, companySsoEndpoints.setProvider, async (request) => settings.setProvider(await organizationOf(request), me(request), request.body), { bodyLimit: 600_000 });
    route(app, companySsoEndpoints.setRequireSso, async (request) => settings.setRequireSso(await organizationOf(request), me(request), request.body.require_sso));
    route(app, companySsoEndpoints.mailDomainProof, async (request) =>
      settings.mailProof(await organizationOf(request), me(request), request.params.domain, request.body.address, requestOrigin(request, config)),
    );
    route(app, companySsoEndpoints.confirmDomainProof, async (request) => settings.confirmProof(await organizationOf(request), me(request), request.params.domain, request.body.code));
    route(app, companySsoEndpoints.addDomain, async (request) => settings.addDomain(await organizationOf(request), me(request), request.body.domain));
    route(app, companySsoEndpoints.verifyDomain, async (request) => settings.verifyDomain(await organizationOf(request), me(request), request.params.domain));
    route(app, companySsoEndpoints.removeDomain, async (request) => settings.removeDomain(await organizationOf(request), me(request), request.params.domain));

    /**
     * The SAML Assertion Consumer Service: the IdP's page POSTs the response here (a form, from
     * another site). The browser goes on to /sso/redirect with a one-time code, never the
     * assertion or a token in the address.
     */
    await app.register(async (acs) => {
      acs.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 600_000 }, (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      acs.post('/_auth/sso/saml/:identifier/acs', { schema: { hide: true } }, async (request, reply) => {
        const params = companySsoSamlParamsSchema.safeParse(request.params);
        const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
        const target = await companySso.acs(params.success ? params.data.identifier : '', body, requestOrigin(request, config));
        return reply.code(303).header('cache-control', 'no-store').redirect(target);
      });
    });
  };
}
