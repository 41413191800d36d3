import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { solveAltcha } from '../test/captcha';
import { freshDatabase, migratedDataDir, testDatabaseKind } from '../test/db-target';
import { startServerProcess, type ServerProcess } from '../test/server-process';
import { startSmtpPeer } from '../test/smtp-peer';

/**
 * Crash safety: the real server process (src/main.ts) under a write load (API keys created
 * and deleted, profile updates), killed with SIGKILL mid-load, then started again on the
 * same data. Every write the client saw acknowledged must be there (every deletion it saw
 * acknowledged gone), and the database must open. On PGlite (DATA_DIR), and on PostgreSQL
 * when the run has one (TEST_DB=postgres).
 */

const PASSWORD = 'plum-orbit-cactus-917';
const servers = new Set<ServerProcess>();

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      TRUST_PROXY: '1',
      WEB_DIST: path.join(tmpdir(), 'no-web-dist'),
      DELETION_JOB_INTERVAL_SECONDS: '0',
      ...env,
    },
    60_000,
  );
  servers.add(server);
  return server;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`${response.status}: ${text.slice(0, 200)}`);
  }
}

/** Signs up, activates (dev outbox link) and signs in; the session token. */
async function account(url: string, email: string, address: string): Promise<string> {
  const challenge = await json(await fetch(`${url}/v3/sso/captcha/challenge`));
  const captcha = await solveAltcha(challenge as never);
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': address };
  const signUp = await fetch(`${url}/v3/sso/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ full_name: 'Crash Test', email, password: PASSWORD, accept_terms: true, captcha }),
  });
  expect(signUp.status).toBe(201);
  // The activation link keeps the password only in the browser that signed up (its registration cookie).
  const registration = signUp.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
  let token: string | undefined;
  for (let tries = 0; tries < 50 && !token; tries++) {
    const outbox = await (await fetch(`${url}/dev/outbox.json?to=${encodeURIComponent(email)}`)).text();
    token = /\/confirmation\/([\w-]+)/.exec(outbox)?.[1];
    if (!token) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const activated = await fetch(`${url}/v3/sso/users/activate`, { method: 'POST', headers: { ...headers, cookie: registration }, body: JSON.stringify({ token }) });
  expect(activated.status).toBe(200);
  const signedIn = await json(await fetch(`${url}/v3/sso/auth`, { method: 'POST', headers, body: JSON.stringify({ email, password: PASSWORD }) }));
  return signedIn.token as string;
}

interface Acknowledged {
  created: Set<string>;
  deleted: Set<string>;
  /** The profile name of the last acknowledged update, and every name sent at all. */
  lastName: string;
  sentNames: Set<string>;
}

/** Writes until `stop()`: API keys created (and, past 30, the oldest deleted) and profile updates, 4 at a time. */
function writeLoad(url: string, token: string): { stop: () => Promise<Acknowledged>; count: () => number; created: () => number } {
  const acknowledged: Acknowledged = { created: new Set(), deleted: new Set(), lastName: 'Crash Test', sentNames: new Set() };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let running = true;
  let writes = 0;
  let counter = 0;
  const worker = async (index: number) => {
    while (running) {
      counter += 1;
      const n = counter;
      try {
        if (index === 0) {
          const name = `Crash ${n}`;
          acknowledged.sentNames.add(name);
          const response = await fetch(`${url}/v3/sso/me`, { method: 'PUT', headers: auth, body: JSON.stringify({ full_name: name }) });
          if (response.ok) acknowledged.lastName = name;
        } else if (acknowledged.created.size - acknowledged.deleted.size > 30 && index === 1) {
          const victim = [...acknowledged.created].find((id) => !acknowledged.deleted.has(id));
          if (victim) {
            const response = await fetch(`${url}/v3/sso/me/api-keys/${victim}`, { method: 'DELETE', headers: auth });
            if (response.ok) acknowledged.deleted.add(victim);
          }
        } else {
          const response = await fetch(`${url}/v3/sso/me/api-keys`, { method: 'POST', headers: auth, body: JSON.stringify({ name: `key ${n}`, scopes: ['me:read'] }) });
          if (response.ok) acknowledged.created.add((await json(response)).id as string);
        }
        writes += 1;
      } catch {
        // the server is gone (killed): what was acknowledged before is what counts
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const workers = [0, 1, 2, 3].map(worker);
  return {
    count: () => writes,
    created: () => acknowledged.created.size,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return acknowledged;
    },
  };
}

afterAll(async () => {
  for (const server of servers) await server.kill();
});

// PGlite always (the default deployment: its data folder must survive the plug being pulled,
// whichever database the rest of the run uses), and PostgreSQL too when the run has one.
const kinds = testDatabaseKind() === 'postgres' ? (['PGlite', 'PostgreSQL'] as const) : (['PGlite'] as const);

describe.each(kinds)('crash safety (kill -9 under write load) on %s', (kind) => {
  it('keeps every acknowledged write and opens again', { timeout: 150_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-crash-'));
    const env: Record<string, string> = { DATA_DIR: path.join(dataDir, 'db') };
    // A PostgreSQL database of its own (dropped when its handle closes, at the end), or a
    // PGlite folder already migrated: the crash comes under load, not during the migrations.
    const database = kind === 'PostgreSQL' ? await freshDatabase() : null;
    if (database) env.DATABASE_URL = database.url!;
    else await migratedDataDir(env.DATA_DIR);
    try {
      const first = await startServer(env);
      const token = await account(first.url, `crash-${Date.now()}@example.com`, '127.7.0.1');
      const load = writeLoad(first.url, token);
      // Until a good number of writes are acknowledged, keys among them, then the plug is pulled
      // mid-load. A key's creation is a transaction of four statements (the account's turn, its
      // session, the count, the insert): on a busy machine 20 s saw fewer than 20 of them.
      const deadline = Date.now() + 60_000;
      while ((load.count() < 150 || load.created() <= 25) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      await first.kill();
      const acknowledged = await load.stop();
      expect(acknowledged.created.size).toBeGreaterThan(20);

      const second = await startServer(env);
      const auth = { authorization: `Bearer ${token}` };
      const keys = (await json(await fetch(`${second.url}/v3/sso/me/api-keys`, { headers: auth }))) as unknown as Array<{ id: string }> | { items: Array<{ id: string }> };
      const ids = new Set((Array.isArray(keys) ? keys : keys.items).map((key) => key.id));
      const missing = [...acknowledged.created].filter((id) => !acknowledged.deleted.has(id) && !ids.has(id));
      const resurrected = [...acknowledged.deleted].filter((id) => ids.has(id));
      expect({ missing, resurrected }).toEqual({ missing: [], resurrected: [] });
      const me = await json(await fetch(`${second.url}/v3/sso/me`, { headers: auth }));
      // The last acknowledged name, or one sent after it whose answer the kill cut off.
      const names = [...acknowledged.sentNames];
      const lastIndex = names.indexOf(acknowledged.lastName);
      expect([acknowledged.lastName, ...names.slice(lastIndex + 1)]).toContain(me.full_name);
      await second.kill();
    } finally {
      await database?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A sign-in's security alert is queued with its session and mailed after the answer. Killed
 * between the two (its SMTP server never greets, so nothing can have gone out), the server's
 * next start delivers the alert: once, and its notification once.
 */
describe.each(kinds)('crash safety of the new-device alert (kill -9 after the answer) on %s', (kind) => {
  it('delivers the alert of a sign-in answered just before the kill, once', { timeout: 150_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-crash-alert-'));
    const env: Record<string, string> = { DATA_DIR: path.join(dataDir, 'db'), SECURITY_ALERT_INTERVAL_SECONDS: '1', SECURITY_ALERT_LEASE_SECONDS: '1' };
    const database = kind === 'PostgreSQL' ? await freshDatabase() : null;
    if (database) env.DATABASE_URL = database.url!;
    else await migratedDataDir(env.DATA_DIR);
    const held = new Set<Socket>();
    const silent = createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const peer = await startSmtpPeer();
    const email = `alert-${Date.now()}@example.com`;
    const title = 'New sign-in to your account';
    try {
      // Signed up and signed in once (the account's first session alerts nobody), through the dev outbox.
      const first = await startServer(env);
      const token = await account(first.url, email, '127.7.0.2');
      await first.kill();

      const second = await startServer({ ...env, SMTP_URL: `smtp://127.0.0.1:${(silent.address() as { port: number }).port}` });
      const signedIn = await fetch(`${second.url}/v3/sso/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.7.0.2', 'device-id': 'crash-alert-new-device', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(signedIn.status).toBe(200);
      await second.kill();

      const third = await startServer({ ...env, SMTP_URL: peer.url });
      const mail = await peer.waitFor((received) => received.to.includes(email), 30_000);
      expect(mail.subject).toContain(title);
      expect(mail.text).toContain('Chrome 120');
      // Further sweeps (every second) send nothing again.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(peer.messages.filter((received) => received.to.includes(email))).toHaveLength(1);
      const list = (await json(await fetch(`${third.url}/v3/notifications`, { headers: { authorization: `Bearer ${token}` } }))) as { items?: Array<{ title: string }> };
      expect(list.items?.filter((item) => item.title === title)).toHaveLength(1);
      await third.kill();
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await peer.close();
      await database?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
