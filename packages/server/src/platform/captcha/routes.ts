import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors';
import type { CaptchaVerifier } from './types';

/** Loose on purpose: the widget needs every signed field back exactly as issued. */
const challengeSchema = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string(),
});

/**
 * GET /sso/captcha/challenge: a fresh ALTCHA challenge for the widget (mounted under /v3).
 * 404 when the provider is reCAPTCHA, which needs no challenge from us.
 */
export function captchaRoutes(verifier: CaptchaVerifier): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sso/captcha/challenge',
      {
        schema: {
          tags: ['captcha'],
          summary: 'A proof-of-work challenge for the ALTCHA widget (valid 10 minutes, single use)',
          response: { 200: challengeSchema },
        },
      },
      async (_request, reply) => {
        const challenge = (await verifier.challenge()) as z.infer<typeof challengeSchema> | null;
        if (!challenge) throw new AppError('not_found');
        return reply.header('cache-control', 'no-store').send(challenge);
      },
    );
  };
}
