import { socialEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { caller, cookieIsSecure, setSessionCookies } from '../sessions';
import { SOCIAL_STATE_COOKIE, SOCIAL_STATE_MAX_AGE, type FederationService } from './service';

export function federationRoutes(config: Config, federation: FederationService): FastifyPluginAsync {
  return async (app) => {
    const stateCookie = (request: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: cookieIsSecure(request, config) });
    /** A session answered: its cookies too, like every sign-in. */
    const signedIn = <T extends object>(request: FastifyRequest, reply: FastifyReply, result: T) => {
      if ('token' in result && 'user' in result) {
        const { token, user } = result as unknown as { token: string; user: { fullName: string } };
        setSessionCookies(reply, request, config, token, user.fullName);
        return { token };
      }
      return result;
    };

    route(app, socialEndpoints.start, async (request, reply) => {
      const started = await federation.start(request.params.provider, request.body.intent, request.auth ?? undefined, requestOrigin(request, config));
      reply.setCookie(SOCIAL_STATE_COOKIE, started.cookie, { ...stateCookie(request), maxAge: SOCIAL_STATE_MAX_AGE });
      reply.header('cache-control', 'no-store');
      return { url: started.url };
    });

    route(
      app,
      socialEndpoints.authorize,
      async (request, reply) => {
        // One use: whatever the answer, the started sign-in is over.
        reply.clearCookie(SOCIAL_STATE_COOKIE, stateCookie(request));
        const answer = await federation.authorize(request.params.provider, request.body, request.cookies[SOCIAL_STATE_COOKIE], request.auth ?? undefined, requestOrigin(request, config));
        return signedIn(request, reply, answer);
      },
      { config: { waitsForIdentityChanges: false } },
    );

    route(app, socialEndpoints.signUp, async (request, reply) => signedIn(request, reply, await federation.signUp(request.body, requestOrigin(request, config))));

    route(app, socialEndpoints.verifySignUp, async (request, reply) => signedIn(request, reply, await federation.verifySignUp(request.body, requestOrigin(request, config))) as { token: string });

    route(app, socialEndpoints.linked, async (request) => federation.linked(caller(request).user, requestOrigin(request, config)));

    route(app, socialEndpoints.unlink, async (request) => {
      await federation.unlink(caller(request).user, request.params.provider, requestOrigin(request, config));
    });
  };
}

/**
 * Apple answers with `response_mode=form_post`: a POST to /callback. The page is the web
 * app's, so this turns the post into the same GET the other providers make (303), carrying
 * only the values /callback reads, each checked for shape.
 */
export const socialFormPostRoute: FastifyPluginAsync = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post('/callback', { schema: { hide: true } }, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const target = new URLSearchParams();
    for (const [name, limit] of [['code', 4096], ['state', 512], ['iss', 2048], ['error', 256]] as const) {
      const value = form[name];
      if (typeof value === 'string' && value.length > 0 && value.length <= limit) target.set(name, value);
    }
    return reply.code(303).header('cache-control', 'no-store').redirect(`/callback?${target.toString()}`);
  });
};
