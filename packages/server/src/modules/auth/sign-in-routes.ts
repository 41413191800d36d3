import { authEndpoints, mfaEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/http/route';
import { requestOrigin } from '../../platform/request-origin';
import { setSessionCookies, type SignedIn, type SignInResult } from '../sessions';
import type { SignIn } from './sign-in';

/** The ways in over HTTP: password, email code, and the second step a first factor may answer. */
export function signInRoutes(config: Config, signIn: SignIn): FastifyPluginAsync {
  /** A new session sets the cookies and answers its token. */
  function session(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) {
    setSessionCookies(reply, request, config, signedIn.token, signedIn.user.fullName);
    return { token: signedIn.token };
  }

  /** A first factor: a session, or the pending second step answered as it is. */
  function answer(request: FastifyRequest, reply: FastifyReply, result: SignInResult) {
    return 'mfa_required' in result ? result : session(request, reply, result);
  }

  return async (app) => {
    route(
      app,
      authEndpoints.signIn,
      async (request, reply) => answer(request, reply, await signIn.withPassword(request.body, requestOrigin(request, config))),
      // A new session and, rarely, a rehashed password: nothing a cache here can hold stale.
      { config: { waitsForIdentityChanges: false } },
    );

    route(app, mfaEndpoints.sendLoginCode, async (request) => signIn.sendEmailCode(request.body.email, requestOrigin(request, config)));

    route(app, mfaEndpoints.signInWithCode, async (request, reply) => answer(request, reply, await signIn.withEmailCode(request.body, requestOrigin(request, config))));

    route(app, mfaEndpoints.verifySecondFactor, async (request, reply) => session(request, reply, await signIn.withSecondStep(request.body, requestOrigin(request, config))));

    route(app, mfaEndpoints.resendSecondFactor, async (request) => {
      await signIn.resendSecondStep(request.body.mfa_token, requestOrigin(request, config));
    });
  };
}
