import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaptchaVerifier } from './index';
import { createRecaptchaVerifier } from './recaptcha';

/** A tiny stand-in for Google on 127.0.0.1: real HTTP, the documented request and answer shapes. */
interface Seen {
  path: string;
  body: string;
}
let google: Server;
let base: string;
const seen: Seen[] = [];

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  google = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const path = request.url ?? '';
    seen.push({ path, body });
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (path === '/recaptcha/api/siteverify') {
      const form = new URLSearchParams(body);
      if (form.get('secret') !== 'the-secret') return json(200, { success: false, 'error-codes': ['invalid-input-secret'] });
      if (form.get('response') === 'good-token') return json(200, { success: true, hostname: 'id.test' });
      if (form.get('response') === 'good-v3-token') return json(200, { success: true, score: 0.9, action: 'login', hostname: 'id.test' });
      if (form.get('response') === 'elsewhere-token') return json(200, { success: true, hostname: 'evil.example' });
      if (form.get('response') === 'other-action-token') return json(200, { success: true, score: 0.9, action: 'transfer_funds', hostname: 'id.test' });
      if (form.get('response') === 'no-action-token') return json(200, { success: true, score: 0.9, hostname: 'id.test' });
      if (form.get('response') === 'bot-token') return json(200, { success: true, score: 0.1, action: 'login' });
      if (form.get('response') === 'server-error') return json(503, { error: 'unavailable' });
      if (form.get('response') === 'slow') return; // never answers
      return json(200, { success: false, 'error-codes': ['invalid-input-response'] });
    }
    if (path === '/v1/projects/proj-1/assessments?key=api-key') {
      const { event } = JSON.parse(body) as { event: { token: string } };
      if (event.token === 'good-token') return json(200, { tokenProperties: { valid: true, action: 'login', hostname: 'locker.id.test' }, riskAnalysis: { score: 0.9 } });
      if (event.token === 'elsewhere-token') return json(200, { tokenProperties: { valid: true, action: 'login', hostname: 'evil.example' }, riskAnalysis: { score: 0.9 } });
      if (event.token === 'other-action-token') return json(200, { tokenProperties: { valid: true, action: 'payout', hostname: 'locker.id.test' }, riskAnalysis: { score: 0.9 } });
      if (event.token === 'bot-token') return json(200, { tokenProperties: { valid: true }, riskAnalysis: { score: 0.2 } });
      return json(200, { tokenProperties: { valid: false, invalidReason: 'MALFORMED' }, riskAnalysis: { score: 0 } });
    }
    json(404, { error: 'not found' });
  });
  google.listen(0, '127.0.0.1');
  await once(google, 'listening');
  base = `http://127.0.0.1:${(google.address() as AddressInfo).port}`;
});
afterAll(async () => {
  google.closeAllConnections();
  await new Promise((resolve) => google.close(resolve));
});

/** A fetch that sends Google's real URLs to the stand-in, proving the default endpoints. */
const viaStandIn: typeof fetch = (input, init) =>
  fetch(String(input).replace('https://www.google.com', base).replace('https://recaptchaenterprise.googleapis.com', base), init);

describe('reCAPTCHA standard', () => {
  const warnings: object[] = [];
  const verifier = createCaptchaVerifier(
    { CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_VERSION: 'standard', RECAPTCHA_SECRET: 'the-secret', RECAPTCHA_SITE_KEY: 'site', ALTCHA_HMAC_KEY: undefined, PLATFORM_HOSTS: ['id.test'] },
    { fetch: viaStandIn, logger: { warn: (object) => warnings.push(object) } },
  );

  it('accepts a valid token and sends the secret, token and client IP to siteverify', async () => {
    expect(verifier.provider).toBe('recaptcha');
    expect(await verifier.challenge()).toBeNull();
    expect(await verifier.verify('good-token', '198.51.100.7')).toBe(true);
    const request = seen.at(-1)!;
    expect(request.path).toBe('/recaptcha/api/siteverify');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ secret: 'the-secret', response: 'good-token', remoteip: '198.51.100.7' });
  });

  it('refuses an answer solved on another site or for another action', async () => {
    expect(await verifier.verify('elsewhere-token', '198.51.100.7')).toBe(false);
    expect(await verifier.verify('other-action-token', '198.51.100.7')).toBe(false);
    expect(await verifier.verify('no-action-token', '198.51.100.7')).toBe(false);
  });

  it('checks the score of score-based keys', async () => {
    expect(await verifier.verify('good-v3-token', '198.51.100.7')).toBe(true);
    expect(await verifier.verify('bot-token', '198.51.100.7')).toBe(false);
  });

  it('refuses invalid and missing tokens', async () => {
    const before = seen.length;
    expect(await verifier.verify('forged', '198.51.100.7')).toBe(false);
    expect(await verifier.verify(undefined, '198.51.100.7')).toBe(false);
    expect(await verifier.verify('', '198.51.100.7')).toBe(false);
    expect(seen.length).toBe(before + 1); // empty answers never reach Google
  });

  it('answers false, without throwing or logging the secret, when Google fails', async () => {
    expect(await verifier.verify('server-error', '198.51.100.7')).toBe(false);
    const unreachable = createRecaptchaVerifier({ version: 'standard', secret: 'the-secret', endpoint: 'http://127.0.0.1:1/siteverify' });
    expect(await unreachable.verify('good-token', '198.51.100.7')).toBe(false);
    const slow = createRecaptchaVerifier({ version: 'standard', secret: 'the-secret', endpoint: `${base}/recaptcha/api/siteverify`, timeoutMs: 200 });
    expect(await slow.verify('slow', '198.51.100.7')).toBe(false);
    const throwing = createRecaptchaVerifier({ version: 'standard', secret: 'the-secret', fetch: () => Promise.reject(new Error('boom')) });
    expect(await throwing.verify('good-token', '198.51.100.7')).toBe(false);
    expect(warnings.length).toBeGreaterThan(0);
    expect(JSON.stringify(warnings)).not.toContain('the-secret');
  });
});

describe('reCAPTCHA enterprise', () => {
  const warnings: object[] = [];
  const verifier = createCaptchaVerifier(
    {
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_VERSION: 'enterprise',
      RECAPTCHA_SECRET: 'api-key',
      RECAPTCHA_SITE_KEY: 'site-key-1',
      RECAPTCHA_PROJECT_ID: 'proj-1',
      ALTCHA_HMAC_KEY: undefined,
      LOCKER_ORIGIN: 'https://locker.id.test',
    },
    { fetch: viaStandIn, logger: { warn: (object) => warnings.push(object) } },
  );

  it('creates an assessment and accepts a valid, high-score token', async () => {
    expect(await verifier.verify('good-token', '203.0.113.5')).toBe(true);
    const request = seen.at(-1)!;
    expect(request.path).toBe('/v1/projects/proj-1/assessments?key=api-key');
    expect(JSON.parse(request.body)).toEqual({ event: { token: 'good-token', siteKey: 'site-key-1', userIpAddress: '203.0.113.5' } });
  });

  it('refuses an answer solved on another site or for another action', async () => {
    expect(await verifier.verify('elsewhere-token', '203.0.113.5')).toBe(false);
    expect(await verifier.verify('other-action-token', '203.0.113.5')).toBe(false);
  });

  it('refuses invalid tokens and low scores', async () => {
    expect(await verifier.verify('forged', '203.0.113.5')).toBe(false);
    expect(await verifier.verify('bot-token', '203.0.113.5')).toBe(false);
  });

  it('answers false on a network failure and keeps the API key out of the log', async () => {
    const unreachable = createRecaptchaVerifier({
      version: 'enterprise',
      secret: 'api-key',
      projectId: 'proj-1',
      endpoint: 'http://127.0.0.1:1',
      logger: { warn: (object) => warnings.push(object) },
    });
    expect(await unreachable.verify('good-token', '203.0.113.5')).toBe(false);
    expect(warnings.length).toBe(1);
    expect(JSON.stringify(warnings)).not.toContain('api-key');
  });

  it('needs a project id', () => {
    expect(() => createRecaptchaVerifier({ version: 'enterprise', secret: 'api-key' })).toThrow(/project id/);
  });
});
