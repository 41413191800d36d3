import { z } from 'zod';
import { endpoint } from '../endpoint';
import * as firstPaint from '../first-paint';

/** Loose on purpose: the widget needs every signed field back exactly as issued. */
export const captchaChallengeSchema = z.object({
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

/** Fetched by the ALTCHA widget itself; 404 when the provider is reCAPTCHA, which needs no challenge from us. */
export const challenge = endpoint({
  ...firstPaint.captchaChallenge,
  tag: 'captcha',
  auth: 'public',
  summary: 'A proof-of-work challenge for the ALTCHA widget (valid 10 minutes, single use)',
  response: captchaChallengeSchema,
  errors: ['not_found'],
});
