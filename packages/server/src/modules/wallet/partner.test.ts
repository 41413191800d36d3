import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { bankSignatureValid, signBankNotification } from './deposits';
import { rows } from './ledger';
import { createPartnerTransferService } from './partner';
import { createWalletService, type WalletService } from './service';

const SECRET = 'partner-exchange-secret-for-tests-0123456789';

type PartnerStatus = 'pending' | 'completed' | 'rejected';

/**
 * A partner exchange as its API documents it: `POST /transfers` signed with `x-portal-signature`
 * (checked here, as the partner checks it), each `transfer_id` applied once (a resend of a known
 * id answers 409); `GET /transfers/<id>` says what became of an id (404: never received). It
 * refuses an unknown recipient ("nobody-here", "closed-account") and remembers the refusal, pays
 * the recipients in `paysAtOnce` at once, loses its answer to the first request of the
 * recipients in `losesAnswerTo` (the transfer applied, the connection dropped), and answers 503
 * while `down`. Its callbacks are signed with the shared secret and posted to the portal's
 * listening server.
 */
class PartnerExchange {
  readonly received = new Map<string, Record<string, unknown>>();
  readonly statuses = new Map<string, { status: PartnerStatus; reason?: string }>();
  readonly losesAnswerTo = new Set<string>();
  readonly paysAtOnce = new Set<string>();
  deliveries = 0;
  conflicts = 0;
  statusQuestions = 0;
  forged = 0;
  down = false;
  /** The partner's clock ahead of the real one (for the portal's later clocks). */
  skewMs = 0;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const answer = (status: number, body: object) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        const signed = (bytes: Buffer) => bankSignatureValid(SECRET, bytes, request.headers['x-portal-signature'] as string | undefined, new Date(Date.now() + this.skewMs));
        const asked = /^\/transfers\/([0-9a-f-]{36})$/.exec(request.url ?? '');
        if (request.method === 'GET' && asked) {
          if (!signed(Buffer.from(asked[1]!))) {
            this.forged += 1;
            return answer(401, { reason: 'bad signature' });
          }
          this.statusQuestions += 1;
          const known = this.statuses.get(asked[1]!);
          return known ? answer(200, { ...known, reference: `PX-${asked[1]!.slice(0, 8)}` }) : answer(404, { reason: 'unknown transfer' });
        }
        if (request.method !== 'POST' || request.url !== '/transfers') return answer(404, { reason: 'no such endpoint' });
        if (!signed(raw)) {
          this.forged += 1;
          return answer(401, { reason: 'bad signature' });
        }
        this.deliveries += 1;
        if (this.down) return answer(503, { reason: 'maintenance' });
        const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        const id = body.transfer_id as string;
        const recipient = body.recipient as string;
        if (this.statuses.has(id)) {
          this.conflicts += 1;
          return answer(409, { reason: 'duplicate transfer_id' });
        }
        const refused = recipient === 'nobody-here' || recipient === 'closed-account';
        if (refused) this.statuses.set(id, { status: 'rejected', reason: 'No such account' });
        else {
          this.received.set(id, body);
          this.statuses.set(id, { status: this.paysAtOnce.has(recipient) ? 'completed' : 'pending' });
        }
        if (this.losesAnswerTo.delete(recipient)) return response.destroy();
        return refused ? answer(404, { reason: 'No such account' }) : answer(202, { reference: `PX-${id.slice(0, 8)}` });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The callback's body and header as the partner sends them (signed at `at`, with `secret`). */
  callback(transferId: string, status: 'completed' | 'rejected', options: { at?: Date; secret?: string; reason?: string } = {}) {
    const body = JSON.stringify({ transfer_id: transferId, status, partner_reference: `PX-${transferId.slice(0, 8)}`, ...(options.reason ? { reason: options.reason } : {}) });
    return { body, header: signBankNotification(options.secret ?? SECRET, body, options.at ?? new Date()) };
  }

  close = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
}

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let wallet: WalletService;
const partner = new PartnerExchange();
let people = 0;

beforeAll(async () => {
  await partner.start();
  server = await startTestServer({
    listen: true,
    env: { PARTNER_EXCHANGE_URL: partner.url, PARTNER_EXCHANGE_SECRET: SECRET, PARTNER_EXCHANGE_RETRY_SECONDS: '0', WALLET_LIMIT_PER_TRANSFER: 'USD=60', WALLET_LIMIT_PER_DAY: 'USD=100' },
  });
  client = identityClient(server.app, server.database);
  const noSecondStep = async () => {
    throw new Error('not used');
  };
  wallet = createWalletService({ db: server.database.db, clock: { now: () => new Date() }, config: server.config, requireSecondFactor: noSecondStep });
}, 60_000);
afterAll(async () => {
  await server.close();
  await partner.close();
});

async function person(usd = 0): Promise<{ token: string; id: string; email: string }> {
  const email = `partner${++people}@example.com`;
  const token = await client.registeredUser(email);
  const me = await server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
  const id = me.json().id as string;
  if (usd) await wallet.adjust(id, 'USD', usd, 'opening balance');
  return { token, id, email };
}

/** The job as another node runs it, `aheadMs` later than now (the request's own send is left alone for 30 s). */
const jobLater = (aheadMs: number) =>
  createPartnerTransferService({ db: server.database.db, clock: { now: () => new Date(Date.now() + aheadMs) }, config: server.config, log: { info() {}, warn() {} }, wallet });
const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) => server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const send = (token: string, body: Record<string, unknown>, currency = 'USD') =>
  call(token, 'POST', `/v3/sso/me/wallet/${currency}/partner-transfers`, { idempotency_key: crypto.randomUUID(), ...body });
const usd = async (token: string) => ((await call(token, 'GET', '/v3/sso/me/wallet')).json().balances as { currency: string; minor: string }[]).find((item) => item.currency === 'USD')!.minor;
/** Posts a callback to the portal over HTTP, as the partner does. */
const deliver = (body: string, header?: string) =>
  fetch(`${server.url}/v3/wallet/partner-notifications`, { method: 'POST', headers: { 'content-type': 'application/json', ...(header ? { 'x-partner-signature': header } : {}) }, body });
const refunds = async (transferId: string) =>
  (await rows<{ n: number }>(server.database.db, sql`select count(*)::int as n from wallet_partner_transfers t join wallet_entries e on e.id = t.refund_entry_id where t.id = ${transferId}`))[0]!.n;

async function ledgerHolds(): Promise<void> {
  const db = server.database.db;
  expect(await rows(db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
  expect(await rows(db, sql`select a.id from wallet_accounts a left join wallet_postings p on p.account_id = a.id group by a.id, a.balance having a.balance <> coalesce(sum(p.amount), 0)`)).toEqual([]);
  expect(await rows(db, sql`select id from wallet_accounts where user_id is not null and balance < 0`)).toEqual([]);
}

describe('transfers to a partner exchange wallet', () => {
  it('debits at once, sends a signed request the partner accepts, and stays pending until its signed callback completes it', async () => {
    const alice = await person(5_000);
    const sent = await send(alice.token, { to: 'bob@partner.example', amount: '12.5', note: 'rent' });
    expect(sent.statusCode, sent.body).toBe(201);
    const transfer = sent.json();
    expect(transfer).toMatchObject({ currency: 'USD', recipient: 'bob@partner.example', amount: '1250', status: 'pending' });
    expect(await usd(alice.token)).toBe('3750');
    expect(partner.received.get(transfer.id)).toMatchObject({ transfer_id: transfer.id, recipient: 'bob@partner.example', currency: 'USD', amount_minor: '1250', note: 'rent' });
    const listed = await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/transactions');
    expect(listed.json().items[0]).toMatchObject({ direction: 'out', amount: '1250', destination: 'bob@partner.example', status: 'pending', note: 'rent' });

    const callback = partner.callback(transfer.id, 'completed');
    const done = await deliver(callback.body, callback.header);
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ applied: true, status: 'completed' });
    expect((await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/transactions')).json().items[0]).toMatchObject({ status: 'completed' });
    expect((await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/partner-transfers')).json()).toMatchObject({ enabled: true, items: [{ id: transfer.id, status: 'completed' }] });
    // The same callback again (the partner's retry) and a late contradicting one change nothing.
    expect(await (await deliver(callback.body, callback.header)).json()).toEqual({ applied: false, status: 'completed' });
    const late = partner.callback(transfer.id, 'rejected');
    expect(await (await deliver(late.body, late.header)).json()).toEqual({ applied: false, status: 'completed' });
    expect(await usd(alice.token)).toBe('3750');
    await ledgerHolds();
  });

  it('returns the amount and the day\'s allowance once when the partner rejects it', async () => {
    const alice = await person(10_000);
    const sent = (await send(alice.token, { to: '+84 912 345 678', amount: '60' })).json();
    expect(await usd(alice.token)).toBe('4000');
    // 60 of the 100-dollar day used: another 60 is over the daily limit.
    expect((await send(alice.token, { to: 'carol', amount: '60' })).json().code).toBe('wallet.over_daily_limit');
    const callback = partner.callback(sent.id, 'rejected', { reason: 'Account closed' });
    expect(await (await deliver(callback.body, callback.header)).json()).toEqual({ applied: true, status: 'rejected' });
    expect(await usd(alice.token)).toBe('10000');
    const items = (await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/transactions')).json().items;
    expect(items[0]).toMatchObject({ direction: 'in', amount: '6000', status: 'completed', note: 'Returned: the partner exchange rejected the transfer to +84 912 345 678 (Account closed)' });
    expect(items[1]).toMatchObject({ direction: 'out', status: 'rejected' });
    // The allowance came back with the money: the whole day's 100 can be sent again.
    expect((await send(alice.token, { to: 'carol', amount: '60' })).statusCode).toBe(201);
    expect((await send(alice.token, { to: 'dave', amount: '40' })).statusCode).toBe(201);
    expect((await send(alice.token, { to: 'erin', amount: '0.01' })).json().code).toBe('wallet.over_daily_limit');
    expect(await (await deliver(callback.body, callback.header)).json()).toEqual({ applied: false, status: 'rejected' });
    expect(await refunds(sent.id)).toBe(1);
    await ledgerHolds();
  });

  it('refuses forged, altered, unsigned and replayed (stale) callbacks, changing nothing', async () => {
    const alice = await person(5_000);
    const sent = (await send(alice.token, { to: 'bob', amount: '10' })).json();
    const forged = partner.callback(sent.id, 'rejected', { secret: 'someone-else-entirely-0123456789abcdef' });
    // A minute past the 5-minute tolerance either way: a signature 301 s ahead came within it
    // once the loop had spent a second on a loaded machine (CI), and was applied.
    const stale = partner.callback(sent.id, 'rejected', { at: new Date(Date.now() - 360_000) });
    const future = partner.callback(sent.id, 'rejected', { at: new Date(Date.now() + 360_000) });
    const genuine = partner.callback(sent.id, 'completed');
    for (const [body, header] of [
      [forged.body, forged.header],
      [stale.body, stale.header],
      [future.body, future.header],
      [forged.body, genuine.header],
      [genuine.body.replace('completed', 'rejected'), genuine.header],
      [genuine.body, undefined],
      [genuine.body, 't=1,v1=zz'],
    ] as const) {
      const refused = await deliver(body, header);
      expect(refused.status).toBe(401);
      expect((await refused.json()).code).toBe('wallet.partner_signature_invalid');
    }
    expect(await usd(alice.token)).toBe('4000');
    expect((await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/partner-transfers')).json().items[0].status).toBe('pending');
  });

  it('applies 10 parallel identical callbacks once: one refund, one completion', async () => {
    const alice = await person(5_000);
    const [first, second] = [(await send(alice.token, { to: 'bob', amount: '10' })).json(), (await send(alice.token, { to: 'bob', amount: '20' })).json()];
    expect(await usd(alice.token)).toBe('2000');
    const rejection = partner.callback(first.id, 'rejected');
    const completion = partner.callback(second.id, 'completed');
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => deliver(rejection.body, rejection.header)),
      ...Array.from({ length: 10 }, () => deliver(completion.body, completion.header)),
    ]);
    const results = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(results.slice(0, 10).filter((result) => result.applied)).toHaveLength(1);
    expect(results.slice(10).filter((result) => result.applied)).toHaveLength(1);
    expect(await usd(alice.token)).toBe('3000');
    expect(await refunds(first.id)).toBe(1);
    await ledgerHolds();
  });

  it('applies a key once: a retry and 10 parallel requests make one transfer, sent to the partner once', async () => {
    const alice = await person(5_000);
    const key = crypto.randomUUID();
    const deliveries = partner.deliveries;
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(alice.token, { to: 'bob', amount: '5', idempotency_key: key })));
    // One sender claims it: no duplicate for the partner to answer 409 to (which once refunded a transfer the partner had).
    expect(partner.deliveries - deliveries).toBe(1);
    expect(answers.every((answer) => answer.statusCode === 201)).toBe(true);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    expect(await usd(alice.token)).toBe('4500');
    expect((await send(alice.token, { to: 'bob', amount: '6', idempotency_key: key })).json().code).toBe('wallet.idempotency_conflict');
    // The same key on a transfer to an account here is another request.
    const bob = await person();
    expect((await call(alice.token, 'POST', '/v3/sso/me/wallet/USD/transfers', { to: bob.email, amount: '5', idempotency_key: key })).statusCode).toBe(409);
    expect([...partner.received.values()].filter((body) => body.transfer_id === answers[0]!.json().id)).toHaveLength(1);
  });

  it('is rejected and refunded at once when the partner refuses the request; kept and sent again when the partner is down', async () => {
    const alice = await person(5_000);
    const refused = await send(alice.token, { to: 'nobody-here', amount: '10' });
    expect(refused.statusCode).toBe(201);
    expect(refused.json().status).toBe('rejected');
    expect(await usd(alice.token)).toBe('5000');

    partner.down = true;
    const key = crypto.randomUUID();
    const waiting = (await send(alice.token, { to: 'bob', amount: '10', idempotency_key: key })).json();
    expect(waiting.status).toBe('pending');
    expect(await usd(alice.token)).toBe('4000');
    expect(partner.received.has(waiting.id)).toBe(false);
    partner.down = false;
    // The job (a later clock: the request's own attempt is left alone for 30 s) delivers it once.
    const later = jobLater(31_000);
    expect(await later.sendPending()).toBeGreaterThanOrEqual(1);
    expect(partner.received.get(waiting.id)).toMatchObject({ amount_minor: '1000', recipient: 'bob' });
    expect(await later.sendPending()).toBe(0);
    // A retry of the request answers the same transfer without sending it again.
    const before = partner.deliveries;
    expect((await send(alice.token, { to: 'bob', amount: '10', idempotency_key: key })).json().id).toBe(waiting.id);
    expect(partner.deliveries).toBe(before);
    expect(partner.forged).toBe(0);
  });

  it('validates every field, never a 500, with nothing moved', async () => {
    const alice = await person(5_000);
    expect((await send(alice.token, { to: 'a b', amount: '1' })).json().code).toBe('wallet.partner_recipient_invalid');
    expect((await send(alice.token, { to: 'x', amount: '1' })).json().code).toBe('wallet.partner_recipient_invalid');
    expect((await send(alice.token, { to: 'bob', amount: '1.234' })).json().code).toBe('wallet.amount_invalid');
    expect((await send(alice.token, { to: 'bob', amount: '0' })).json().code).toBe('wallet.amount_invalid');
    expect((await send(alice.token, { to: 'bob', amount: '61' })).json().code).toBe('wallet.over_transfer_limit');
    expect((await send(alice.token, { to: 'bob', amount: '51' })).json().code).toBe('wallet.insufficient_balance');
    expect((await send(alice.token, { to: 'bob', amount: '1' }, 'WHC')).json().code).toBe('auth.two_factor_required');
    expect((await send(alice.token, { to: '', amount: '1' })).statusCode).toBe(400);
    expect(await usd(alice.token)).toBe('5000');
    const unknown = partner.callback(crypto.randomUUID(), 'completed');
    expect((await deliver(unknown.body, unknown.header)).status).toBe(404);
    for (const body of ['not json', '{}', JSON.stringify({ transfer_id: 'x', status: 'completed' }), JSON.stringify({ transfer_id: crypto.randomUUID(), status: 'paid' })]) {
      const answer = await deliver(body, signBankNotification(SECRET, body, new Date()));
      expect(answer.status).toBe(400);
    }
  });

  it('answers 503 without a partner configured', async () => {
    const off = await startTestServer();
    try {
      const token = await identityClient(off.app, off.database).registeredUser('nopartner@example.com');
      const answer = await off.app.inject({ method: 'POST', url: '/v3/sso/me/wallet/USD/partner-transfers', headers: { authorization: `Bearer ${token}` }, payload: { to: 'bob', amount: '1', idempotency_key: crypto.randomUUID() } });
      expect(answer.statusCode).toBe(503);
      expect(answer.json().code).toBe('wallet.partner_unavailable');
      expect((await off.app.inject({ method: 'GET', url: '/v3/sso/me/wallet/USD/partner-transfers', headers: { authorization: `Bearer ${token}` } })).json()).toEqual({ enabled: false, items: [] });
      expect((await off.app.inject({ method: 'POST', url: '/v3/wallet/partner-notifications', payload: '{}', headers: { 'content-type': 'application/json' } })).statusCode).toBe(503);
    } finally {
      await off.close();
    }
  }, 60_000);
});

describe('an unclear answer from the partner, reconciled by the transfer id', () => {
  const transferRow = async (id: string) =>
    (await rows<{ status: string; sent_at: string | null; attempts: number; refund_entry_id: string | null }>(server.database.db, sql`select status, sent_at, attempts, refund_entry_id from wallet_partner_transfers where id = ${id}`))[0]!;

  it('a first answer lost and a 409 to the resend: debited once, delivered by the status asked by id, never refunded', async () => {
    const alice = await person(5_000);
    partner.losesAnswerTo.add('lucky-recipient');
    partner.paysAtOnce.add('lucky-recipient');
    const sent = await send(alice.token, { to: 'lucky-recipient', amount: '10' });
    expect(sent.statusCode, sent.body).toBe(201);
    const transfer = sent.json();
    // The partner applied it; its answer never came: pending, not known to be sent.
    expect(transfer.status).toBe('pending');
    expect(partner.received.has(transfer.id)).toBe(true);
    expect(await usd(alice.token)).toBe('4000');

    const conflicts = partner.conflicts;
    await jobLater(31_000).sendPending();
    expect(partner.conflicts).toBe(conflicts + 1);
    expect(await transferRow(transfer.id)).toMatchObject({ status: 'completed', refund_entry_id: null });
    expect(await usd(alice.token)).toBe('4000');
    expect(await refunds(transfer.id)).toBe(0);
    expect((await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/transactions')).json().items[0]).toMatchObject({ direction: 'out', amount: '1000', status: 'completed' });
    // Nothing more to do for it: no resend, no refund, whatever the jobs and the partner's late callback.
    const deliveries = partner.deliveries;
    await Promise.all([jobLater(31_000).sendPending(), jobLater(31_000).sendPending()]);
    const late = partner.callback(transfer.id, 'rejected');
    expect(await (await deliver(late.body, late.header)).json()).toEqual({ applied: false, status: 'completed' });
    expect([...partner.received.keys()].filter((id) => id === transfer.id)).toHaveLength(1);
    expect(partner.deliveries).toBe(deliveries);
    expect(await usd(alice.token)).toBe('4000');
    await ledgerHolds();
  });

  it('a 409 to the resend of a transfer the partner still holds: accepted and pending until its callback, not refunded', async () => {
    const alice = await person(5_000);
    partner.losesAnswerTo.add('patient-recipient');
    const transfer = (await send(alice.token, { to: 'patient-recipient', amount: '10' })).json();
    expect(await transferRow(transfer.id)).toMatchObject({ status: 'pending', sent_at: null });
    await jobLater(31_000).sendPending();
    const row = await transferRow(transfer.id);
    expect(row.status).toBe('pending');
    expect(row.sent_at).not.toBeNull();
    expect(await usd(alice.token)).toBe('4000');
    const callback = partner.callback(transfer.id, 'completed');
    expect(await (await deliver(callback.body, callback.header)).json()).toEqual({ applied: true, status: 'completed' });
    expect(await refunds(transfer.id)).toBe(0);
    await ledgerHolds();
  });

  it('a definitive rejection refunds exactly once, with two reconcile jobs at once', async () => {
    const alice = await person(5_000);
    // One refused after a lost answer (the resend answered 409, the status says rejected) ...
    partner.losesAnswerTo.add('closed-account');
    const lost = (await send(alice.token, { to: 'closed-account', amount: '10' })).json();
    expect(lost.status).toBe('pending');
    // ... one accepted, then rejected by the partner whose callback never came (asked by id after 15 minutes).
    const quiet = (await send(alice.token, { to: 'quiet-recipient', amount: '20' })).json();
    expect(quiet.status).toBe('pending');
    partner.statuses.set(quiet.id, { status: 'rejected', reason: 'Account closed' });
    expect(await usd(alice.token)).toBe('2000');

    await Promise.all([jobLater(31_000).sendPending(), jobLater(31_000).sendPending()]);
    expect(await transferRow(lost.id)).toMatchObject({ status: 'rejected' });
    expect(await refunds(lost.id)).toBe(1);
    expect(await usd(alice.token)).toBe('3000');

    partner.skewMs = 16 * 60_000;
    try {
      await Promise.all([jobLater(16 * 60_000).sendPending(), jobLater(16 * 60_000).sendPending()]);
    } finally {
      partner.skewMs = 0;
    }
    expect(await transferRow(quiet.id)).toMatchObject({ status: 'rejected' });
    expect(await refunds(quiet.id)).toBe(1);
    expect(await refunds(lost.id)).toBe(1);
    expect(await usd(alice.token)).toBe('5000');
    const items = (await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/transactions')).json().items as { direction: string; note: string | null }[];
    expect(items.filter((item) => item.direction === 'in' && item.note?.startsWith('Returned'))).toHaveLength(2);
    expect(partner.forged).toBe(0);
    await ledgerHolds();
  });
});
