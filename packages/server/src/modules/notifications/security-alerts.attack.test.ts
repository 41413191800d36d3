import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityAlerts } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { startTestServer, type TestServer } from '../../../test/harness';
import { identityClient } from '../../../test/identity';
import { listOutbox } from '../../platform/mail';
import { securityCopy } from './security-copy';
import { createSecurityAlertWorker } from './security-alerts';

/**
 * A thief with the owner's password signs in on a new device. Whatever the thief does next,
 * the owner's new-device alert goes to the address the account had when the thief signed in.
 */

const PASSWORD = 'plum-orbit-cactus-917';
const CODE = /^ {4}(\d{6})$/m;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on: every SMTP send there fails at once. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let withOutbox: TestServer;
let smtpDown: TestServer;
beforeAll(async () => {
  // Two nodes on one database: one whose SMTP server is down (the alert's first send fails and
  // waits for its retry), one that mails through the outbox (the thief's own mailbox works).
  withOutbox = await startTestServer({ env: { SECURITY_ALERT_INTERVAL_SECONDS: '0' } });
  smtpDown = await startTestServer({ database: withOutbox.database, env: { SMTP_URL: `smtp://127.0.0.1:${await deadPort()}`, SECURITY_ALERT_INTERVAL_SECONDS: '0' } });
});
afterAll(async () => {
  await smtpDown?.close();
  await withOutbox?.close();
});

describe('a new-device alert the thief tries to redirect', () => {
  it('goes to the address the account had at the sign-in, not one the thief set before its retry', { timeout: 60_000 }, async () => {
    const client = identityClient(withOutbox.app, withOutbox.database);
    const owner = 'alert-owner@example.com';
    const thiefMailbox = 'thief-mailbox@example.net';
    await client.registeredUser(owner);

    // The thief signs in from a device the account never used; the first send fails.
    const stolen = await smtpDown.app.inject({ method: 'POST', url: '/v3/sso/auth', payload: { email: owner, password: PASSWORD }, headers: { 'device-id': 'thief-device-0001', 'user-agent': 'vitest' } });
    expect(stolen.statusCode).toBe(200);
    const token = stolen.json().token as string;
    const db = withOutbox.database.db;
    for (let waited = 0; (await db.select().from(securityAlerts)).every((row) => row.attempts === 0); waited += 25) {
      if (waited > 10_000) throw new Error('the first send was never tried');
      await sleep(25);
    }

    // Before the retry, the thief makes the account's email an address of their own.
    const call = (url: string, payload: object) => withOutbox.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });
    expect((await call('/v3/sso/me/email/change', { new_email: thiefMailbox, password: PASSWORD })).statusCode).toBe(204);
    const [, code] = await client.mailTo(thiefMailbox, CODE);
    expect((await call('/v3/sso/me/email/change/confirm', { code: code! })).statusCode).toBe(200);

    // The retry, once due, on a node whose SMTP works.
    const later = manualClock(new Date(Date.now() + 60 * 60_000));
    const worker = createSecurityAlertWorker({ config: withOutbox.config, db, clock: later, mailer: withOutbox.mailer, log: { error: () => undefined } });
    expect(await worker.run()).toMatchObject({ sent: 1 });
    await withOutbox.mailer.settled?.();

    const title = securityCopy('new_device_sign_in', 'en', 'x').title;
    const alertsTo = async (address: string) => (await listOutbox(withOutbox.database, { to: address })).filter((mail) => mail.subject.includes(title));
    expect(await alertsTo(thiefMailbox)).toEqual([]);
    expect(await alertsTo(owner)).toHaveLength(1);
    expect(await db.select().from(securityAlerts).where(eq(securityAlerts.attempts, 1))).toEqual([]);
  });
});
