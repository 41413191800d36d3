import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha } from '../../../test/captcha';
import { installErrorHandling } from '../errors';
import { captchaRoutes, createAltchaVerifier, createRecaptchaVerifier, type CaptchaVerifier } from './index';

async function appWith(verifier: CaptchaVerifier): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await app.register(async (v3) => v3.register(captchaRoutes(verifier)), { prefix: '/v3' });
  await app.ready();
  return app;
}

describe('GET /v3/sso/captcha/challenge', () => {
  const altcha = createAltchaVerifier({ hmacKey: 'routes-test-hmac-key-0123456789' });
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith(altcha);
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves a fresh, uncached challenge whose solution verifies', async () => {
    const response = await app.inject({ url: '/v3/sso/captcha/challenge' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const again = await app.inject({ url: '/v3/sso/captcha/challenge' });
    expect(again.json().signature).not.toBe(response.json().signature);
    // Through the response serializer and back: every signed field must survive.
    const payload = await solveCaptcha(app);
    expect(await altcha.verify(payload, '127.0.0.1')).toBe(true);
  });

  it('answers 404 when reCAPTCHA is the provider', async () => {
    const recaptchaApp = await appWith(createRecaptchaVerifier({ version: 'standard', secret: 's' }));
    const response = await recaptchaApp.inject({ url: '/v3/sso/captcha/challenge' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
    await recaptchaApp.close();
  });
});
