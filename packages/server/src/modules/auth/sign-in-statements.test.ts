import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_ID_HEADER } from '@portal/contracts';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { countStatements } from '../../../test/statement-counter';

/**
 * What a password sign-in asks of the database on a warm node. Each statement is a round trip
 * (to PostgreSQL, or to PGlite's worker thread) on every sign-in, whose CPU on both ends comes
 * out of the cores argon2 runs on.
 */
const PASSWORD = 'plum-orbit-cactus-917';
const SIGN_INS = 4;

let server: TestServer;
let identity: ReturnType<typeof identityClient>;

beforeAll(async () => {
  server = await startTestServer();
  identity = identityClient(server.app, server.database);
});
afterAll(() => server?.close());

/**
 * Statements per sign-in over SIGN_INS sign-ins one after another, after one unmeasured
 * (statements prepared), less the node's timers that may fall in the window (the database's
 * readiness ping, the webhook deliveries' poller, the security alerts' sender, the operators'
 * counters, written once a second). Two windows, the fewer statements counting: another of
 * the node's jobs may run in one, hardly in both.
 */
async function perSignIn(signIn: () => Promise<void>): Promise<{ perSignIn: number; texts: string[] }> {
  await signIn();
  // The first sign-in from the browser's device alerts the owner: delivered in the background.
  await server.mailer.settled();
  const window = () =>
    countStatements(
      async () => {
        for (let i = 0; i < SIGN_INS; i++) await signIn();
      },
      { ignore: /^select 1$|webhook_deliveries|security_alerts|dashboard_counters/ },
    );
  const [first, second] = [await window(), await window()];
  const counted = second.count < first.count ? second : first;
  return { perSignIn: counted.count / SIGN_INS, texts: counted.texts };
}

describe('a password sign-in', () => {
  it('reads its account and its organization membership in one statement, and the membership once more after its session is written', async () => {
    const email = 'one-read@example.com';
    await identity.registeredUser(email, PASSWORD);
    // A returning browser: the device id its first sign-in here made known.
    const counted = await perSignIn(async () => {
      const answer = await identity.post('/v3/sso/auth', { email, password: PASSWORD }, { [DEVICE_ID_HEADER]: 'statements-browser' });
      expect(answer.statusCode, answer.body).toBe(200);
    });
    const reads = counted.texts.filter((text) => /from "(users|organization_members)"/.test(text));
    // The account with its membership (before the password check), and company SSO's check of
    // the session once committed (a requirement turned on while the password was checked).
    expect(reads.length / SIGN_INS, counted.texts.join('\n')).toBe(2);
    expect(reads.every((text) => text.includes('"organization_members"')), reads.join('\n')).toBe(true);
  });
});
