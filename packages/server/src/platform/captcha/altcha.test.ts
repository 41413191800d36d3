import { randomBytes } from 'node:crypto';
import type { Challenge } from 'altcha-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { solveAltcha } from '../../../test/captcha';
import { createRateLimiter } from '../rate-limit';
import { loadConfig } from '../../config';
import { ALTCHA_DEFAULTS, createAltchaVerifier } from './altcha';
import { createCaptchaVerifier } from './index';

const HMAC_KEY = 'a-test-hmac-key-of-enough-length';
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('ALTCHA verifier', () => {
  const verifier = createAltchaVerifier({ hmacKey: HMAC_KEY });

  it('issues a signed, expiring challenge that is quick to solve', async () => {
    const challenge = (await verifier.challenge()) as Challenge;
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(challenge.parameters.cost).toBe(ALTCHA_DEFAULTS.cost);
    const expiresIn = challenge.parameters.expiresAt! - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThan(590);
    expect(expiresIn).toBeLessThanOrEqual(600);
    const started = performance.now();
    await solveAltcha(challenge);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('accepts a solved challenge once', async () => {
    const payload = await solveAltcha((await verifier.challenge()) as Challenge);
    expect(await verifier.verify(payload, '127.0.0.1')).toBe(true);
    expect(await verifier.verify(payload, '127.0.0.1')).toBe(false);
  });

  it('refuses tampered challenges and wrong solutions', async () => {
    const payload = decode(await solveAltcha((await verifier.challenge()) as Challenge));
    const easier = structuredClone(payload);
    easier.challenge.parameters.expiresAt += 3600;
    expect(await verifier.verify(encode(easier), '127.0.0.1')).toBe(false);
    const wrongKey = structuredClone(payload);
    wrongKey.solution.derivedKey = wrongKey.solution.derivedKey.replace(/.$/, (c: string) => (c === '0' ? '1' : '0'));
    expect(await verifier.verify(encode(wrongKey), '127.0.0.1')).toBe(false);
    const unsigned = structuredClone(payload);
    delete unsigned.challenge.signature;
    expect(await verifier.verify(encode(unsigned), '127.0.0.1')).toBe(false);
    // The untouched payload still works: failures above spent nothing.
    expect(await verifier.verify(encode(payload), '127.0.0.1')).toBe(true);
  });

  it('refuses a challenge signed with another key', async () => {
    const other = createAltchaVerifier({ hmacKey: 'another-hmac-key-of-enough-length' });
    const payload = await solveAltcha((await other.challenge()) as Challenge);
    expect(await verifier.verify(payload, '127.0.0.1')).toBe(false);
  });

  it('refuses an expired challenge', async () => {
    const shortLived = createAltchaVerifier({ hmacKey: HMAC_KEY, expiresInSeconds: 1 });
    const payload = await solveAltcha((await shortLived.challenge()) as Challenge);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await shortLived.verify(payload, '127.0.0.1')).toBe(false);
  });

  it('refuses garbage without throwing', async () => {
    for (const answer of [undefined, '', 'not-base64!', encode({}), encode({ challenge: 1, solution: 2 }), 'x'.repeat(10_000)]) {
      expect(await verifier.verify(answer, '127.0.0.1')).toBe(false);
    }
  });

  it('takes its cost from ALTCHA_COST: the default 1,000 iterations when unset, the tests 1', async () => {
    const standard = createCaptchaVerifier(loadConfig({ NODE_ENV: 'test' }));
    expect(((await standard.challenge()) as Challenge).parameters.cost).toBe(ALTCHA_DEFAULTS.cost);
    expect(() => loadConfig({ NODE_ENV: 'test', ALTCHA_COST: '0' })).toThrow(/ALTCHA_COST/);
    const cheap = createCaptchaVerifier(loadConfig({ NODE_ENV: 'test', ALTCHA_COST: '1' }));
    const challenge = (await cheap.challenge()) as Challenge;
    expect(challenge.parameters.cost).toBe(1);
    expect(await cheap.verify(await solveAltcha(challenge), '127.0.0.1')).toBe(true);
  });

  it('makes its own key in development, so challenges of another process do not verify', async () => {
    const first = createCaptchaVerifier({ CAPTCHA_PROVIDER: 'altcha', ALTCHA_HMAC_KEY: undefined, RECAPTCHA_SECRET: undefined, RECAPTCHA_SITE_KEY: undefined, RECAPTCHA_VERSION: undefined });
    const second = createCaptchaVerifier({ CAPTCHA_PROVIDER: 'altcha', ALTCHA_HMAC_KEY: undefined, RECAPTCHA_SECRET: undefined, RECAPTCHA_SITE_KEY: undefined, RECAPTCHA_VERSION: undefined });
    expect(first.provider).toBe('altcha');
    const payload = await solveAltcha((await first.challenge()) as Challenge);
    expect(await second.verify(payload, '127.0.0.1')).toBe(false);
    expect(await first.verify(payload, '127.0.0.1')).toBe(true);
  });
});

describe.runIf(process.env.REDIS_URL)('ALTCHA replay protection across nodes (Redis)', () => {
  const prefix = `test:${randomBytes(4).toString('hex')}:`;
  const storeA = createRateLimiter({ redisUrl: process.env.REDIS_URL, keyPrefix: prefix });
  const storeB = createRateLimiter({ redisUrl: process.env.REDIS_URL, keyPrefix: prefix });
  afterAll(async () => {
    await Promise.all([storeA.close(), storeB.close()]);
  });

  it('refuses on one node a payload already used on the other', async () => {
    const nodeA = createAltchaVerifier({ hmacKey: HMAC_KEY, replayStore: storeA });
    const nodeB = createAltchaVerifier({ hmacKey: HMAC_KEY, replayStore: storeB });
    const payload = await solveAltcha((await nodeA.challenge()) as Challenge);
    expect(await nodeB.verify(payload, '127.0.0.1')).toBe(true);
    expect(await nodeA.verify(payload, '127.0.0.1')).toBe(false);
  });
});
