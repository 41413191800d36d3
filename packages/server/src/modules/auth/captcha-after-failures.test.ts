import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { solveCaptcha } from '../../../test/captcha';

/**
 * The sign-in captcha is asked only after confirmed failures on the account (wrong passwords
 * already answered), never because tries are still in flight: one person signing in from
 * several clients at once meets no captcha. The count is one atomic increment per wrong
 * password, so parallel wrong passwords count exactly.
 */
let server: TestServer;
let client: ReturnType<typeof identityClient>;
const PASSWORD = 'plum-orbit-cactus-917';

beforeAll(async () => {
  server = await startTestServer();
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

/** A sign-in from its own client (device id) and address. */
const signInFrom = (client: number, email: string, password: string, extra: Record<string, unknown> = {}) =>
  server.app.inject({
    method: 'POST',
    url: '/v3/sso/auth',
    remoteAddress: `127.7.0.${client + 1}`,
    headers: { 'user-agent': 'vitest', 'device-id': `captcha-test-${client}` },
    payload: { email, password, ...extra },
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sign-in captcha after confirmed failures', () => {
  it('is not asked of one account signing in from several clients at once', async () => {
    await client.registeredUser('many-clients@example.com');
    // Staggered so that later tries start while earlier ones still hold their reservations;
    // as many as the account's failure budget, which bounds the checks in flight at once.
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        await pause(i * 3);
        return signInFrom(i, 'many-clients@example.com', PASSWORD);
      }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
  });

  it('is not asked after fewer than three wrong passwords', async () => {
    await client.registeredUser('two-wrong@example.com');
    for (const i of [0, 1]) expect((await signInFrom(i, 'two-wrong@example.com', 'wrong-password')).json().details.captcha_required).toBe(false);
    expect((await signInFrom(2, 'two-wrong@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('counts parallel wrong passwords exactly, asks from the third, and starts afresh after a success', async () => {
    await client.registeredUser('parallel-wrong@example.com');
    const wrong = await Promise.all([0, 1, 2].map((i) => signInFrom(i, 'parallel-wrong@example.com', 'wrong-password')));
    expect(wrong.map((answer) => answer.json().code)).toEqual(Array(3).fill('auth.invalid_credentials'));
    // One atomic count per failure: exactly one answer saw the third.
    expect(wrong.filter((answer) => answer.json().details.captcha_required === true)).toHaveLength(1);

    const withoutCaptcha = await signInFrom(3, 'parallel-wrong@example.com', PASSWORD);
    expect(withoutCaptcha.statusCode).toBe(400);
    expect(withoutCaptcha.json()).toMatchObject({ code: 'auth.captcha_required', details: { captcha_required: true } });
    const withCaptcha = await signInFrom(3, 'parallel-wrong@example.com', PASSWORD, { captcha: await solveCaptcha(server.app) });
    expect(withCaptcha.statusCode).toBe(200);

    const afterSuccess = await signInFrom(4, 'parallel-wrong@example.com', 'wrong-password');
    expect(afterSuccess.json()).toMatchObject({ code: 'auth.invalid_credentials', details: { captcha_required: false } });
  });

  it('counts wrong passwords for an unknown identifier the same way', async () => {
    const answers = await Promise.all([0, 1, 2, 3].map((i) => signInFrom(i, 'nobody-here@example.com', 'wrong-password')));
    expect(answers.filter((answer) => answer.json().details?.captcha_required === true)).toHaveLength(2);
    expect((await signInFrom(5, 'nobody-here@example.com', 'wrong-password')).json().code).toBe('auth.captcha_required');
  });
});
