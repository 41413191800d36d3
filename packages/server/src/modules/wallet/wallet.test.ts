import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { roomyTotpEpoch } from '../../../test/totp';
import { rows } from './ledger';
import { createWalletService, toMinorUnits, type WalletService } from './service';

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let wallet: WalletService;
let people = 0;

beforeAll(async () => {
  // Small limits in USD so the tests reach them; VND and WHC keep the defaults.
  server = await startTestServer({ env: { WALLET_LIMIT_PER_TRANSFER: 'USD=60', WALLET_LIMIT_PER_DAY: 'USD=100' } });
  client = identityClient(server.app, server.database);
  // For `adjust` only: the routes' service (app.ts) is the one that checks second steps.
  const noSecondStep = async () => {
    throw new Error('not used');
  };
  wallet = createWalletService({ db: server.database.db, clock: { now: () => new Date() }, config: server.config, requireSecondFactor: noSecondStep });
});
afterAll(() => server.close());

/** A signed-in person: their session and user id. */
async function person(): Promise<{ email: string; token: string; id: string }> {
  const email = `wallet${++people}@example.com`;
  const token = await client.registeredUser(email);
  const me = await server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
  return { email, token, id: me.json().id as string };
}

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const transfer = (token: string, currency: string, body: Record<string, unknown>) =>
  call(token, 'POST', `/v3/sso/me/wallet/${currency}/transfers`, { idempotency_key: crypto.randomUUID(), ...body });
const balance = async (token: string, currency: string) =>
  ((await call(token, 'GET', '/v3/sso/me/wallet')).json().balances as { currency: string; minor: string }[]).find((item) => item.currency === currency)!.minor;

/** Every entry sums to zero per currency, every balance equals its postings, no person below zero. */
async function ledgerHolds(): Promise<void> {
  const db = server.database.db;
  expect(await rows(db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
  expect(
    await rows(db, sql`select a.id from wallet_accounts a left join wallet_postings p on p.account_id = a.id group by a.id, a.balance having a.balance <> coalesce(sum(p.amount), 0)`),
  ).toEqual([]);
  expect(await rows(db, sql`select id from wallet_accounts where user_id is not null and balance < 0`)).toEqual([]);
}

describe('amounts', () => {
  it("reads major units in each currency's precision", () => {
    expect(toMinorUnits('12.5', 'USD')).toBe(1250);
    expect(toMinorUnits('12.345', 'USD')).toBeNull();
    expect(toMinorUnits('150000', 'VND')).toBe(150000);
    expect(toMinorUnits('1.5', 'VND')).toBeNull();
    expect(toMinorUnits('0.00000001', 'WHC')).toBe(1);
    expect(toMinorUnits('0', 'USD')).toBeNull();
  });
});

describe('transfers between accounts', () => {
  it('moves money at once by email or username, with the balance after in both lists', async () => {
    const [alice, bob] = [await person(), await person()];
    await wallet.adjust(alice.id, 'VND', 500_000, 'opening balance');
    const sent = await transfer(alice.token, 'VND', { to: bob.email.toUpperCase(), amount: '150000', note: 'lunch' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ direction: 'out', amount: '150000', balance: '350000', destination: bob.email.toUpperCase(), status: 'completed', note: 'lunch', currency: 'VND' });
    expect(await balance(alice.token, 'VND')).toBe('350000');
    expect(await balance(bob.token, 'VND')).toBe('150000');
    const received = (await call(bob.token, 'GET', '/v3/sso/me/wallet/VND/transactions')).json();
    expect(received.total).toBe(1);
    expect(received.items[0]).toMatchObject({ direction: 'in', amount: '150000', balance: '150000', destination: null });
    const outgoing = (await call(alice.token, 'GET', '/v3/sso/me/wallet/VND/transactions?direction=out')).json();
    expect(outgoing.items.map((item: { amount: string }) => item.amount)).toEqual(['150000']);
    expect((await call(alice.token, 'GET', '/v3/sso/me/wallet/VND/transactions?direction=in')).json().items[0].note).toBe('opening balance');
    await ledgerHolds();
  });

  it('applies a retried request once; the same key for another transfer is refused', async () => {
    const [alice, bob] = [await person(), await person()];
    await wallet.adjust(alice.id, 'USD', 5_000, 'opening balance');
    const body = { to: bob.email, amount: '10', idempotency_key: 'retry-key-0001' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => transfer(alice.token, 'USD', body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    expect(await balance(alice.token, 'USD')).toBe('4000');
    const reused = await transfer(alice.token, 'USD', { ...body, amount: '11' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('wallet.idempotency_conflict');
    expect(await balance(bob.token, 'USD')).toBe('1000');
  });

  it('refuses what it cannot do, with the error and nothing moved', async () => {
    const [alice, bob] = [await person(), await person()];
    await wallet.adjust(alice.id, 'USD', 2_000, 'opening balance');
    const code = async (currency: string, body: Record<string, unknown>) => (await transfer(alice.token, currency, body)).json().code;
    expect(await code('USD', { to: bob.email, amount: '20.01' })).toBe('wallet.insufficient_balance');
    expect(await code('USD', { to: 'nobody@example.com', amount: '1' })).toBe('wallet.recipient_not_found');
    expect(await code('USD', { to: alice.email, amount: '1' })).toBe('wallet.recipient_self');
    expect(await code('USD', { to: bob.email, amount: '1.001' })).toBe('wallet.amount_invalid');
    expect(await code('VND', { to: bob.email, amount: '1.5' })).toBe('wallet.amount_invalid');
    expect(await code('USD', { to: bob.email, amount: '0' })).toBe('wallet.amount_invalid');
    expect(await code('EUR', { to: bob.email, amount: '1' })).toBe('validation_error');
    const over = (await transfer(alice.token, 'USD', { to: bob.email, amount: '61' })).json();
    expect(over).toMatchObject({ code: 'wallet.over_transfer_limit', message: 'This transfer is above the limit of $60 a transfer', details: { limit: '$60' } });
    expect(await balance(alice.token, 'USD')).toBe('2000');
    expect(await balance(bob.token, 'USD')).toBe('0');
    expect((await server.app.inject({ method: 'GET', url: '/v3/sso/me/wallet' })).statusCode).toBe(401);
  });

  it('never lets parallel transfers overdraw a balance', async () => {
    const [alice, bob] = [await person(), await person()];
    await wallet.adjust(alice.id, 'VND', 50_000, 'opening balance');
    const answers = await Promise.all(Array.from({ length: 20 }, () => transfer(alice.token, 'VND', { to: bob.email, amount: '5000' })));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(10);
    expect(answers.filter((answer) => answer.json().code === 'wallet.insufficient_balance')).toHaveLength(10);
    expect(await balance(alice.token, 'VND')).toBe('0');
    expect(await balance(bob.token, 'VND')).toBe('50000');
    await ledgerHolds();
  });

  it('moves WHC only with two-step on and a current code each time; a retry needs no second code', async () => {
    const [alice, bob] = [await person(), await person()];
    await wallet.adjust(alice.id, 'WHC', 10 * 10 ** 8, 'opening balance');
    const off = await transfer(alice.token, 'WHC', { to: bob.email, amount: '1' });
    expect([off.statusCode, off.json().code]).toEqual([403, 'auth.two_factor_required']);

    const { secret } = (await call(alice.token, 'POST', '/v3/sso/me/2fa/totp/setup', {})).json();
    const now = await roomyTotpEpoch();
    expect((await call(alice.token, 'POST', '/v3/sso/me/2fa/totp/enable', { code: await generate({ secret, epoch: now - 30 }) })).statusCode).toBe(200);
    expect((await transfer(alice.token, 'WHC', { to: bob.email, amount: '1' })).json().code).toBe('auth.code_invalid');
    expect((await transfer(alice.token, 'WHC', { to: bob.email, amount: '1', code: '000000' })).json().code).toBe('auth.code_invalid');
    expect(await balance(alice.token, 'WHC')).toBe(String(10 * 10 ** 8));

    const code = await generate({ secret, epoch: now });
    const body = { to: bob.email, amount: '0.5', code, idempotency_key: 'whc-retry-0001' };
    const sent = await transfer(alice.token, 'WHC', body);
    expect(sent.statusCode, sent.body).toBe(201);
    const retried = await transfer(alice.token, 'WHC', { ...body, code: undefined });
    expect(retried.json().id).toBe(sent.json().id);
    // The same code again (another transfer) is a replay.
    expect((await transfer(alice.token, 'WHC', { to: bob.email, amount: '0.5', code })).json().code).toBe('auth.code_invalid');
    expect(await balance(bob.token, 'WHC')).toBe(String(0.5 * 10 ** 8));
  });

  it('holds the daily limit under parallel transfers', async () => {
    const [alice, bob] = [await person(), await person()];
    await wallet.adjust(alice.id, 'USD', 100_000, 'opening balance');
    const answers = await Promise.all(Array.from({ length: 15 }, () => transfer(alice.token, 'USD', { to: bob.email, amount: '10' })));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(10);
    const refused = answers.find((answer) => answer.statusCode !== 201)!.json();
    expect(refused).toMatchObject({ code: 'wallet.over_daily_limit', message: 'This transfer would pass your daily limit of $100', details: { limit: '$100' } });
    expect(await balance(bob.token, 'USD')).toBe('10000');
  });
});

describe('the ledger in the database', () => {
  it('refuses an entry that does not balance, and any change to a posting', async () => {
    const alice = await person();
    await wallet.adjust(alice.id, 'USD', 100, 'opening balance');
    const db = server.database.db;
    const [account] = await rows<{ id: string }>(db, sql`select id from wallet_accounts where user_id = ${alice.id}`);
    await expect(
      db.transaction(async (tx) => {
        const [entry] = await rows<{ id: string }>(tx, sql`insert into wallet_entries (kind, currency, status) values ('adjustment', 'USD', 'completed') returning id`);
        await tx.execute(sql`insert into wallet_postings (entry_id, account_id, currency, amount, balance_after) values (${entry!.id}, ${account!.id}, 'USD', 5, 105)`);
      }),
    ).rejects.toThrow();
    await expect(db.execute(sql`update wallet_postings set amount = 1`)).rejects.toThrow();
    await expect(db.execute(sql`delete from wallet_postings`)).rejects.toThrow();
    await expect(db.execute(sql`update wallet_accounts set balance = -1 where id = ${account!.id}`)).rejects.toThrow();
    await ledgerHolds();
  });

  it('keeps every entry balanced and no balance negative over any sequence of operations', async () => {
    const group = [await person(), await person(), await person()];
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('adjust' as const), who: fc.nat(2), minor: fc.integer({ min: 1, max: 5_000 }) }),
      fc.record({ kind: fc.constant('transfer' as const), from: fc.nat(2), to: fc.nat(2), cents: fc.integer({ min: 1, max: 3_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        for (const step of operations) {
          if (step.kind === 'adjust') await wallet.adjust(group[step.who]!.id, 'VND', step.minor, 'property');
          else await transfer(group[step.from]!.token, 'VND', { to: group[step.to]!.email, amount: String(step.cents) });
        }
        await ledgerHolds();
      }),
      { numRuns: 8, seed: 4242 },
    );
  });
});
