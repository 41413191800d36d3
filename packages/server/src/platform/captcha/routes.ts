import { captchaEndpoints } from '@portal/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors';
import { route } from '../http/route';
import type { CaptchaVerifier } from './types';

type Challenge = z.infer<typeof captchaEndpoints.captchaChallengeSchema>;

/** A fresh ALTCHA challenge for the widget; 404 when the provider is reCAPTCHA, which needs no challenge from us. */
export function captchaRoutes(verifier: CaptchaVerifier): FastifyPluginAsync {
  return async (app) => {
    route(app, captchaEndpoints.challenge, async (_request, reply) => {
      const challenge = (await verifier.challenge()) as Challenge | null;
      if (!challenge) throw new AppError('not_found');
      return reply.header('cache-control', 'no-store').send(challenge);
    });
  };
}
