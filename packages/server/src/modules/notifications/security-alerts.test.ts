import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, securityAlerts, sessions, users } from '../../db/schema';
import { systemClock } from '../../platform/clock';
import { createMailer } from '../../platform/mail';
import { hashPassword } from '../../platform/passwords';
import { startTestServer, type TestServer } from '../../../test/harness';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../../../test/smtp-peer';
import { createUserService, type UserRow } from '../users';
import { securityCopy } from './security-copy';
import { createSecurityAlertWorker } from './security-alerts';
import { securityMail } from './service';

/**
 * A sign-in's security alert is queued with its session, in one transaction, and made (an
 * in-app notification and a mail) after the answer by the alert worker of any node.
 */

const PASSWORD = 'plum-orbit-cactus-917';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let peer: SmtpPeer;
let node: TestServer;
let passwordHash: string;

beforeAll(async () => {
  peer = await startSmtpPeer();
  node = await startTestServer({ env: { SMTP_URL: peer.url } });
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await node?.close();
  await peer?.close();
});

/** An activated account, made in the database (its activation mail is not what these tests read). */
async function person(server: TestServer, label: string, language = 'en'): Promise<UserRow> {
  const now = new Date();
  const id = randomUUID();
  await createUserService(server.database.db).insert({ id, email: `${label}-${id.slice(0, 8)}@example.com`, fullName: `Alert ${label}`, passwordHash, language, activatedAt: now, createdAt: now, updatedAt: now });
  return (await createUserService(server.database.db).findById(id))!;
}

function signIn(server: TestServer, user: UserRow, deviceId: string, host?: string) {
  return server.app.inject({
    method: 'POST',
    url: '/v3/sso/auth',
    payload: { email: user.email, password: PASSWORD },
    headers: { 'device-id': deviceId, 'user-agent': CHROME, ...(host ? { host } : {}) },
  });
}

/** Polls until `done` holds (the worker runs after the answer). */
async function until(done: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('not in time');
    await sleep(25);
  }
}

const newDeviceTitle = (lang: 'en' | 'vi') => securityCopy('new_device_sign_in', lang, 'x').title;
const alertsOf = async (server: TestServer, user: UserRow) =>
  server.database.db.select().from(securityAlerts).innerJoin(sessions, eq(sessions.id, securityAlerts.sessionId)).where(eq(sessions.userId, user.id));
const notificationsOf = async (server: TestServer, user: UserRow, title = newDeviceTitle('en')) =>
  (await server.database.db.select().from(notifications).where(and(eq(notifications.userId, user.id), eq(notifications.title, title)))).length;
const mailsTo = (user: UserRow) => peer.messages.filter((mail: ReceivedMail) => mail.to.includes(user.email));

describe('security alerts of sign-ins', () => {
  it('arrive once, in the person’s language and brand, with the words the mail always had', async () => {
    const user = await person(node, 'lang', 'vi');
    expect((await signIn(node, user, 'first-browser-0001')).statusCode).toBe(200);
    const answer = await signIn(node, user, 'second-browser-0002', 'locker.localhost');
    expect(answer.statusCode).toBe(200);

    const mail = await peer.waitFor((received) => received.to.includes(user.email), 10_000);
    const [session] = await node.database.db.select().from(sessions).where(and(eq(sessions.userId, user.id), eq(sessions.deviceId, 'second-browser-0002')));
    const detail = [session!.browser, session!.device, session!.location, session!.ip].filter(Boolean).join(' · ');
    expect(detail).toContain('Chrome 120');
    const expected = await securityMail({ config: node.config, db: node.database.db }, user, 'new_device_sign_in', { brand: 'locker', detail });
    expect({ subject: mail.subject, text: mail.text.replace(/\r\n/g, '\n').trim() }).toEqual({ subject: expected.subject, text: expected.text.trim() });
    expect(mail.subject).toBe(`Locker ID: ${newDeviceTitle('vi')}`);
    expect(mail.headers['message-id']).toMatch(/^<[0-9a-f-]{36}@/);

    await until(async () => (await alertsOf(node, user)).length === 0);
    expect(await notificationsOf(node, user, newDeviceTitle('vi'))).toBe(1);
    await sleep(300);
    expect(mailsTo(user)).toHaveLength(1);
  });

  it('arrive exactly once while two nodes and two more workers drain the queue at once', { timeout: 60_000 }, async () => {
    const second = await startTestServer({ env: { SMTP_URL: peer.url }, database: node.database });
    const log = { error: () => undefined };
    const extraMailer = createMailer({ smtpUrl: peer.url, from: node.config.MAIL_FROM, database: node.database });
    const workers = [1, 2].map(() => createSecurityAlertWorker({ config: node.config, db: node.database.db, clock: systemClock, mailer: extraMailer, log }));
    try {
      const people = await Promise.all(Array.from({ length: 6 }, (_, index) => person(node, `race${index}`)));
      for (const [index, user] of people.entries()) expect((await signIn(index % 2 ? second : node, user, `known-${index}-000001`)).statusCode).toBe(200);
      expect(peer.messages.filter((mail) => people.some((user) => mail.to.includes(user.email)))).toEqual([]);

      let draining = true;
      const drains = workers.map(async (worker) => {
        while (draining) {
          await worker.run({ batchSize: 1 });
          await sleep(1);
        }
      });
      const answers = await Promise.all(people.map((user, index) => signIn(index % 2 ? node : second, user, `new-${index}-0000001`)));
      expect(answers.map((answer) => answer.statusCode)).toEqual(people.map(() => 200));
      await until(async () => people.every((user) => mailsTo(user).length > 0) && (await node.database.db.select().from(securityAlerts)).length === 0, 20_000);
      draining = false;
      await Promise.all(drains);
      await sleep(300);

      for (const user of people) {
        expect(mailsTo(user)).toHaveLength(1);
        expect(await notificationsOf(node, user)).toBe(1);
      }
      const ids = people.map((user) => mailsTo(user)[0]!.headers['message-id']);
      expect(new Set(ids).size).toBe(people.length);
    } finally {
      await extraMailer.close();
      await second.close();
    }
  });

  it('answer before the mail is sent: a stalled SMTP server does not hold the sign-in', { timeout: 30_000 }, async () => {
    // Accepts connections and never greets: a send waits on it until the mailer's timeout.
    const held = new Set<Socket>();
    const stalled: Server = createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const port = (stalled.address() as { port: number }).port;
    const slow = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      const user = await person(slow, 'stalled');
      expect((await signIn(slow, user, 'stall-known-0001')).statusCode).toBe(200);
      const started = Date.now();
      const answer = await signIn(slow, user, 'stall-new-00002');
      const took = Date.now() - started;
      expect(answer.statusCode).toBe(200);
      // The worker has taken the alert and is waiting on SMTP: the answer did not.
      await until(async () => held.size > 0);
      expect(took).toBeLessThan(5_000);
      expect(await alertsOf(slow, user)).toHaveLength(1);
      await until(async () => (await notificationsOf(slow, user)) === 1);
    } finally {
      for (const socket of held) socket.destroy();
      await slow.close();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });

  it('leave nothing behind for a sign-in refused after its factor: a second step still required', async () => {
    const user = await person(node, 'twostep');
    expect((await signIn(node, user, 'twostep-known-01')).statusCode).toBe(200);
    await node.database.db.update(users).set({ twoFactorMethod: 'email' }).where(eq(users.id, user.id));
    const answer = await signIn(node, user, 'twostep-new-0002');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ mfa_required: true });
    await sleep(300);
    expect(await alertsOf(node, user)).toEqual([]);
    expect(await notificationsOf(node, user)).toBe(0);
  });

  it('leave no alert and no session when the sign-in fails after the session was inserted', async () => {
    const user = await person(node, 'rollback');
    expect((await signIn(node, user, 'rollback-known-1')).statusCode).toBe(200);
    // A real failure inside the sign-in's transaction, after the session's INSERT: the alert's INSERT is refused.
    const db = node.database.db;
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_test_alert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF EXISTS (SELECT 1 FROM sessions WHERE id = NEW.session_id AND device_id = 'rollback-new-002') THEN RAISE EXCEPTION 'alert refused by the test'; END IF;
        RETURN NEW; END $$`),
    );
    await db.execute(sql.raw('CREATE TRIGGER refuse_test_alert BEFORE INSERT ON security_alerts FOR EACH ROW EXECUTE FUNCTION refuse_test_alert()'));
    try {
      expect((await signIn(node, user, 'rollback-new-002')).statusCode).toBe(500);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_test_alert ON security_alerts'));
      await db.execute(sql.raw('DROP FUNCTION refuse_test_alert()'));
    }
    const left = await node.database.db.select().from(sessions).where(and(eq(sessions.userId, user.id), eq(sessions.deviceId, 'rollback-new-002')));
    expect(left).toEqual([]);
    expect(await alertsOf(node, user)).toEqual([]);
    await sleep(300);
    expect(await notificationsOf(node, user)).toBe(0);
    expect(mailsTo(user)).toEqual([]);

    // The device was never recorded: its next sign-in is the new device's, and alerts once.
    expect((await signIn(node, user, 'rollback-new-002')).statusCode).toBe(200);
    await peer.waitFor((received) => received.to.includes(user.email), 10_000);
    await until(async () => (await alertsOf(node, user)).length === 0);
    expect(await notificationsOf(node, user)).toBe(1);
  });
});
