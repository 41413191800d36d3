import { generate } from 'otplib';
import { afterAll, beforeAll, expect } from 'vitest';
import { manualClock } from './clock';
import type { TestServer } from './harness';
import { startServerWithClient, type IdentityClient } from './server-with-client';
import { visitorCalls } from './visitor-calls';

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
  let client: IdentityClient;
  beforeAll(async () => ({ server, client } = await startServerWithClient({ clock })));
  afterAll(() => server.close());

  /** Each call from its own address, so per-IP limits stay out of the way unless a test wants them. */
  const call = visitorCalls(() => server, '10.9');

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
