import { generate } from 'otplib';
import { afterAll, beforeAll, expect } from 'vitest';
import { manualClock } from './clock';
import { identityClient } from './identity';
import { startTestServer, type TestServer } from './harness';

export const PASSWORD = 'plum-orbit-cactus-917';
/** The 6-digit code of a mailed sign-in or two-step code. */
export const CODE_MAIL = /\n {4}(\d{6})\n/;

/**
 * A test server on a manual clock with the calls two-step tests make: sign in, turn TOTP on,
 * start a challenge. Starts before the file's tests and closes after them.
 */
export function twoStepTestServer() {
  // The middle of a 30-second step, so "one step of drift" is unambiguous.
  const clock = manualClock(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000));
  let server: TestServer;
  let client: ReturnType<typeof identityClient>;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    client = identityClient(server.app, server.database);
  });
  afterAll(() => server.close());

  let visitors = 0;
  /** Each call from its own address, so per-IP limits stay out of the way unless a test wants them. */
  function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: unknown; ip?: string } = {}) {
    visitors += 1;
    return server.app.inject({
      method,
      url,
      payload: options.body as object | undefined,
      remoteAddress: options.ip ?? `10.9.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}`,
      headers: { 'user-agent': 'vitest', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    });
  }

  const epoch = () => Math.floor(clock.now().getTime() / 1000);
  const totpCode = (secret: string, steps = 0) => generate({ secret, epoch: epoch() + steps * 30 });
  const signIn = (email: string, password = PASSWORD) => call('POST', '/v3/sso/auth', { body: { email, password } });

  return {
    clock,
    get server() {
      return server;
    },
    get client() {
      return client;
    },
    call,
    totpCode,
    nextStep: () => clock.advance(30_000),
    signIn,
    me: (token: string) => call('GET', '/v3/sso/me', { token }),

    /** A signed-in user with TOTP turned on: the session, the secret and the recovery codes. */
    async totpUser(email: string) {
      const token = await client.registeredUser(email, PASSWORD);
      const setup = await call('POST', '/v3/sso/me/2fa/totp/setup', { token });
      expect(setup.statusCode).toBe(200);
      const { secret } = setup.json();
      const enabled = await call('POST', '/v3/sso/me/2fa/totp/enable', { token, body: { code: await totpCode(secret) } });
      expect(enabled.statusCode).toBe(200);
      return { token, secret: secret as string, recovery: enabled.json().recovery_codes as string[] };
    },

    /** A password sign-in that two-step verification answers with a challenge: its mfa_token. */
    async challenge(email: string) {
      const response = await signIn(email);
      expect(response.statusCode).toBe(200);
      return response.json().mfa_token as string;
    },
  };
}
