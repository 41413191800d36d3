import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, testDatabaseKind } from '../../../test/db-target';
import { startServerProcess, type ServerProcess } from '../../../test/server-process';
import type { DatabaseHandle } from '../../db/client';
import { hashPassword } from '../../platform/passwords';
import { createUserService } from '../users';
import { rows } from './ledger';
import { createWalletService } from './service';

/**
 * Jepsen's bank test with a crash, on PostgreSQL: the real server
 * (`src/main.ts` in a process of its own) takes transfers from 12 clients at once between 6
 * accounts; each client retries a request that got no answer with the same idempotency key
 * until it gets one. Two seconds in, the server is killed with SIGKILL (no shutdown, requests in
 * flight) and started again on the same database; the clients carry on against it. At the end:
 * the total is what was put in, no balance is negative, every entry balances, every account
 * equals its postings, and every acknowledged transfer is there exactly once with its amount
 * (nothing acknowledged lost, nothing retried applied twice).
 */
const ACCOUNTS = 6;
const CLIENTS = 12;
const OPENING = 1_000_000; // $10,000.00 each
const PASSWORD = `bank-${randomBytes(12).toString('base64url')}`;

let database: (DatabaseHandle & { url?: string }) | undefined;
let dataDir: string | undefined;
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(testDatabaseKind() !== 'postgres')('the bank test with the server killed (kill -9) and restarted', () => {
  it('conserves the total, keeps balances at zero or above, and holds every acknowledged transfer exactly once', async () => {
    database = await freshDatabase();
    const users = createUserService(database.db);
    const wallet = createWalletService({ db: database.db, clock: { now: () => new Date() }, config: { WALLET_LIMIT_PER_TRANSFER: { USD: 10_000, VND: 1, WHC: 1 }, WALLET_LIMIT_PER_DAY: { USD: 10_000_000, VND: 1, WHC: 1 } }, requireSecondFactor: async () => {} });
    const hash = await hashPassword(PASSWORD);
    const people: { id: string; email: string; token: string }[] = [];
    for (let index = 0; index < ACCOUNTS; index += 1) {
      const now = new Date();
      const id = randomUUID();
      const email = `bank-${index}-${randomBytes(3).toString('hex')}@example.com`;
      await users.insert({ id, email, fullName: `Bank ${index}`, passwordHash: hash, activatedAt: now, createdAt: now, updatedAt: now });
      await wallet.adjust(id, 'USD', OPENING, 'opening balance');
      people.push({ id, email, token: '' });
    }
    // The server in production mode on this database. One key for both processes: what is
    // encrypted at rest stays readable after the restart.
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-bank-'));
    const secrets = { ALTCHA_HMAC_KEY: randomBytes(24).toString('hex'), DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') };
    const env = (url: string) => ({
      ...secrets,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PLATFORM_ORIGIN: url,
      DATA_DIR: dataDir!,
      DATABASE_URL: database!.url!,
      SEED_DEMO: 'false',
      DELETION_JOB_INTERVAL_SECONDS: '0',
      BILLING_JOB_INTERVAL_SECONDS: '0',
      WALLET_LIMIT_PER_DAY: 'USD=10000000,VND=1,WHC=1',
      RATE_LIMITS: 'signin:ip=100000/600',
    });
    let server = await startServerProcess(env);
    servers.push(server);
    for (const person of people) {
      const response = await fetch(`${server.url}/v3/sso/auth`, { method: 'POST', headers: { 'content-type': 'application/json', 'device-id': `bank-${person.id}` }, body: JSON.stringify({ email: person.email, password: PASSWORD }) });
      expect(response.status).toBe(200);
      person.token = ((await response.json()) as { token: string }).token;
    }

    const acknowledged: { sender: string; recipient: string; key: string; amount: number; entry: string }[] = [];
    let refused = 0;
    let retries = 0;
    let stopping = false;
    /** One request until it is answered: no answer (a connection refused or reset, a 5xx) is sent again with the same key. */
    async function transfer(from: (typeof people)[number], to: (typeof people)[number], amount: number): Promise<void> {
      const key = randomUUID();
      const body = JSON.stringify({ to: to.email, amount: (amount / 100).toFixed(2), idempotency_key: key });
      for (;;) {
        let response: Response;
        try {
          response = await fetch(`${server.url}/v3/sso/me/wallet/USD/transfers`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}`, 'device-id': `bank-${from.id}` },
            body,
            signal: AbortSignal.timeout(10_000),
          });
        } catch {
          retries += 1;
          await sleep(50);
          continue;
        }
        const answer = (await response.json().catch(() => ({}))) as { id?: string; code?: string };
        if (response.status === 201) {
          acknowledged.push({ sender: from.id, recipient: to.id, key, amount, entry: answer.id! });
          return;
        }
        if (response.status === 400 && answer.code === 'wallet.insufficient_balance') {
          refused += 1;
          return;
        }
        if (response.status >= 500 || response.status === 401) {
          // 401: a session check that met the dying process; the session lives in the database.
          retries += 1;
          await sleep(50);
          continue;
        }
        throw new Error(`transfer answered ${response.status}: ${JSON.stringify(answer)}`);
      }
    }
    async function client(): Promise<void> {
      while (!stopping) {
        const from = people[Math.floor(Math.random() * ACCOUNTS)]!;
        let to = people[Math.floor(Math.random() * ACCOUNTS)]!;
        while (to === from) to = people[Math.floor(Math.random() * ACCOUNTS)]!;
        await transfer(from, to, 1 + Math.floor(Math.random() * 400_000));
      }
    }

    const clients = Array.from({ length: CLIENTS }, () => client());
    await sleep(2_000);
    const beforeKill = acknowledged.length;
    process.kill(server.child.pid!, 'SIGKILL');
    await sleep(300);
    server = await startServerProcess(env);
    servers.push(server);
    const afterRestart = acknowledged.length;
    await sleep(2_000);
    stopping = true;
    await Promise.all(clients);

    expect(beforeKill).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(afterRestart);
    expect(retries).toBeGreaterThan(0);
    const db = database.db;
    // The total is conserved: what the people hold is what was put in.
    const [total] = await rows<{ held: string; all: string }>(
      db,
      sql`select coalesce(sum(balance) filter (where user_id is not null), 0)::text as held, coalesce(sum(balance), 0)::text as all from wallet_accounts where currency = 'USD'`,
    );
    expect(total).toEqual({ held: String(ACCOUNTS * OPENING), all: '0' });
    expect(await rows(db, sql`select id from wallet_accounts where user_id is not null and balance < 0`)).toEqual([]);
    expect(await rows(db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
    expect(await rows(db, sql`select a.id from wallet_accounts a left join wallet_postings p on p.account_id = a.id group by a.id, a.balance having a.balance <> coalesce(sum(p.amount), 0)`)).toEqual([]);
    // Every acknowledged transfer is there once, as answered: its key's one entry, with its two postings.
    const entries = await rows<{ id: string; key: string; sender: string; debit: string; credit: string; recipient: string }>(
      db,
      sql`select e.id, e.idempotency_key as key, e.initiated_by as sender,
          (select -p.amount from wallet_postings p where p.entry_id = e.id and p.amount < 0)::text as debit,
          (select p.amount from wallet_postings p where p.entry_id = e.id and p.amount > 0)::text as credit,
          (select a.user_id from wallet_postings p join wallet_accounts a on a.id = p.account_id where p.entry_id = e.id and p.amount > 0) as recipient
        from wallet_entries e where e.kind = 'transfer'`,
    );
    const byKey = new Map(entries.map((entry) => [entry.key, entry]));
    expect(byKey.size).toBe(entries.length);
    for (const transfer of acknowledged) {
      const entry = byKey.get(transfer.key);
      expect(entry, transfer.key).toBeDefined();
      expect(entry).toEqual({ id: transfer.entry, key: transfer.key, sender: transfer.sender, debit: String(transfer.amount), credit: String(transfer.amount), recipient: transfer.recipient });
    }
    // Nothing but what the clients asked for (a transfer whose answer was lost is in the ledger once and acknowledged on its retry).
    expect(entries.length).toBe(acknowledged.length);
    console.info(`bank test: ${acknowledged.length} transfers acknowledged (${beforeKill} before the kill), ${refused} refused for the balance, ${retries} requests sent again`);
  }, 60_000);
});
