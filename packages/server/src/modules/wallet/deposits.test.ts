import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { bankSignatureValid, createDepositService, newReference, referencesIn, signBankNotification } from './deposits';
import { rows } from './ledger';
import { crc16 } from './vietqr';

const SECRET = 'bank-webhook-secret-for-tests-0123456789';
const ACCOUNT = '0071001234567';
const DEPOSIT_ENV = { VIETQR_BANK_BIN: '970436', VIETQR_ACCOUNT_NUMBER: ACCOUNT, VIETQR_ACCOUNT_NAME: 'CONG TY PORTAL', BANK_WEBHOOK_SECRET: SECRET };

let server: TestServer;
let client: ReturnType<typeof identityClient>;
let people = 0;
let transactions = 0;

beforeAll(async () => {
  server = await startTestServer({ env: DEPOSIT_ENV });
  client = identityClient(server.app, server.database);
});
afterAll(() => server.close());

async function person(): Promise<{ token: string; id: string }> {
  const token = await client.registeredUser(`deposit${++people}@example.com`);
  const me = await server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } });
  return { token, id: me.json().id as string };
}

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) => server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const order = (token: string, amount: string) => call(token, 'POST', '/v3/sso/me/wallet/VND/deposits', { amount });
const vnd = async (token: string) => ((await call(token, 'GET', '/v3/sso/me/wallet')).json().balances as { currency: string; minor: string }[]).find((item) => item.currency === 'VND')!.minor;

interface Notification {
  transaction_id: string;
  amount: number;
  description: string;
  account_number: string;
  occurred_at: string;
}
const notification = (reference: string, amount: number, extra: Partial<Notification> = {}): Notification => ({
  transaction_id: `FT${Date.now()}${++transactions}`,
  amount,
  description: `MBVCB.1234.${reference}.CT tu 0123 NGUYEN VAN A toi ${ACCOUNT}`,
  account_number: ACCOUNT,
  occurred_at: new Date().toISOString(),
  ...extra,
});
/** Posts a notification signed as the bank does (or with the header given). */
const notify = (body: object | string, header?: string) => {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return server.app.inject({
    method: 'POST',
    url: '/v3/wallet/bank-notifications',
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-bank-signature': header ?? signBankNotification(SECRET, raw, new Date()) },
  });
};

describe('references and signatures', () => {
  it('draws short references of Crockford base32 and finds them in a mangled transfer content', () => {
    const reference = newReference();
    expect(reference).toMatch(/^PD[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(referencesIn(`ck ${reference.toLowerCase()} thanks`)).toEqual([reference]);
    expect(referencesIn(`IBFT-${reference.slice(0, 5)} ${reference.slice(5)}-NAPAS`)).toEqual([reference]);
    expect(referencesIn(`PD${reference}`)).toContain(reference);
    expect(referencesIn('no reference here, PD123')).toEqual([]);
  });

  it('never draws a reference holding a second PD, so a content names one reference', () => {
    // About 7 draws in 1,000 held one before; 3,000 draws find it all but surely.
    for (let draw = 0; draw < 3000; draw += 1) {
      const reference = newReference();
      expect(referencesIn(`ck ${reference} thanks PDA`), reference).toEqual([reference]);
    }
  });

  it('accepts only an HMAC of "<t>.<body>" under the secret, within 5 minutes', () => {
    const now = new Date();
    const raw = Buffer.from('{"a":1}');
    expect(bankSignatureValid(SECRET, raw, signBankNotification(SECRET, raw, now), now)).toBe(true);
    expect(bankSignatureValid(SECRET, raw, signBankNotification('another-secret-another-secret-0000', raw, now), now)).toBe(false);
    expect(bankSignatureValid(SECRET, Buffer.from('{"a":2}'), signBankNotification(SECRET, raw, now), now)).toBe(false);
    expect(bankSignatureValid(SECRET, raw, signBankNotification(SECRET, raw, new Date(now.getTime() - 301_000)), now)).toBe(false);
    expect(bankSignatureValid(SECRET, raw, signBankNotification(SECRET, raw, new Date(now.getTime() + 301_000)), now)).toBe(false);
    expect(bankSignatureValid(SECRET, raw, undefined, now)).toBe(false);
    expect(bankSignatureValid(SECRET, raw, 't=abc,v1=zz', now)).toBe(false);
    // A rotation: the old key's signature beside the new one's.
    const both = `${signBankNotification('old-secret-old-secret-old-secret-00', raw, now)},v1=${signBankNotification(SECRET, raw, now).split('v1=')[1]}`;
    expect(bankSignatureValid(SECRET, raw, both, now)).toBe(true);
  });
});

describe('deposit orders', () => {
  it('answers a reference, the VietQR payload and its PNG, the bank account and the expiry; lists the orders', async () => {
    const ada = await person();
    const created = await order(ada.token, '500000');
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ currency: 'VND', amount: '500000', status: 'pending', paid_at: null, bank: { bin: '970436', account_number: ACCOUNT, account_name: 'CONG TY PORTAL' } });
    expect(body.reference).toMatch(/^PD[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(body.qr_payload).toBe(
      `00020101021238570010A00000072701270006970436011300710012345670208QRIBFTTA530370454065000005802VN62140810${body.reference}6304${crc16(`00020101021238570010A00000072701270006970436011300710012345670208QRIBFTTA530370454065000005802VN62140810${body.reference}6304`)}`,
    );
    expect(body.qr_image).toMatch(/^data:image\/png;base64,/);
    expect(new Date(body.expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const list = (await call(ada.token, 'GET', '/v3/sso/me/wallet/VND/deposits')).json();
    expect(list.enabled).toBe(true);
    expect(list.items).toEqual([expect.objectContaining({ id: body.id, reference: body.reference, status: 'pending' })]);
    expect(list.items[0].qr_image).toBeUndefined();
    // Shown again later, to its owner only.
    const again = await call(ada.token, 'GET', `/v3/sso/me/wallet/VND/deposits/${body.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: body.id, reference: body.reference, qr_payload: body.qr_payload, bank: body.bank });
    const bob = await person();
    expect((await call(bob.token, 'GET', `/v3/sso/me/wallet/VND/deposits/${body.id}`)).statusCode).toBe(404);
    expect((await call(ada.token, 'GET', `/v3/sso/me/wallet/VND/deposits/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await call(ada.token, 'GET', '/v3/sso/me/wallet/VND/deposits/not-a-uuid')).statusCode).toBe(400);
  });

  it('refuses amounts out of range and a sixth waiting order', async () => {
    const bob = await person();
    for (const amount of ['9999', '500000000', '1.5', '-10000', 'abc']) {
      const refused = await order(bob.token, amount);
      expect(refused.statusCode, amount).toBe(400);
    }
    expect((await order(bob.token, '9999')).json()).toMatchObject({ code: 'wallet.deposit_amount_invalid', message: 'Enter a whole amount from ₫10,000 to ₫499,999,999', details: { min: '₫10,000', max: '₫499,999,999' } });
    for (let index = 0; index < 5; index += 1) expect((await order(bob.token, '10000')).statusCode).toBe(201);
    expect((await order(bob.token, '10000')).json()).toMatchObject({ code: 'wallet.deposit_orders_limit', details: { count: 5 } });
    expect((await call(bob.token, 'GET', '/v3/sso/me/wallet/VND/deposits')).json().items).toHaveLength(5);
  });

  it('never lets parallel orders pass the limit of waiting ones together', async () => {
    const carol = await person();
    // Before, each request counted the waiting orders, then inserted: all eight saw none.
    const answers = await Promise.all(Array.from({ length: 8 }, () => order(carol.token, '10000')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 400, 400, 400]);
    for (const refused of answers.filter((answer) => answer.statusCode === 400)) expect(refused.json()).toMatchObject({ code: 'wallet.deposit_orders_limit', details: { count: 5 } });
    expect((await call(carol.token, 'GET', '/v3/sso/me/wallet/VND/deposits')).json().items).toHaveLength(5);
  });

  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'POST', url: '/v3/sso/me/wallet/VND/deposits', payload: { amount: '10000' } })).statusCode).toBe(401);
  });
});

describe('bank notifications', () => {
  it('credit the matching order once: paid, the balance up, an entry from the bank account; a replay is acknowledged', async () => {
    const ada = await person();
    const { reference, id } = (await order(ada.token, '250000')).json();
    const body = notification(reference, 250_000);
    const first = await notify(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ matched: true });
    expect(await vnd(ada.token)).toBe('250000');
    const list = (await call(ada.token, 'GET', '/v3/sso/me/wallet/VND/deposits')).json();
    expect(list.items[0]).toMatchObject({ id, status: 'paid' });
    expect(list.items[0].paid_at).not.toBeNull();
    const history = (await call(ada.token, 'GET', '/v3/sso/me/wallet/VND/transactions')).json();
    expect(history.items).toEqual([expect.objectContaining({ direction: 'in', amount: '250000', balance: '250000', note: `Bank transfer ${reference}`, status: 'completed' })]);

    // The bank retries (same transaction, newly signed): acknowledged, not credited again.
    const replay = await notify(body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ matched: true, duplicate: true });
    // Another transfer for the same, now paid, order: nothing credited.
    expect((await notify({ ...body, transaction_id: `${body.transaction_id}-2` })).json()).toEqual({ matched: false });
    expect(await vnd(ada.token)).toBe('250000');
    const [bank] = await rows<{ balance: string }>(server.database.db, sql`select balance::text as balance from wallet_accounts where system_name = 'bank_deposits' and currency = 'VND'`);
    expect(Number(bank!.balance)).toBeLessThanOrEqual(-250_000);
  });

  it('refuse a forged signature and a stale one (401), crediting nothing', async () => {
    const ada = await person();
    const { reference } = (await order(ada.token, '100000')).json();
    const body = JSON.stringify(notification(reference, 100_000));
    const forged = await notify(body, signBankNotification('not-the-bank-secret-not-the-bank-0000', body, new Date()));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'wallet.bank_signature_invalid' });
    expect((await notify(body, signBankNotification(SECRET, body, new Date(Date.now() - 6 * 60_000)))).statusCode).toBe(401);
    expect((await notify(body, '')).statusCode).toBe(401);
    // Signed for other bytes (the amount changed after signing).
    expect((await notify(body.replace('100000', '900000'), signBankNotification(SECRET, body, new Date()))).statusCode).toBe(401);
    expect(await vnd(ada.token)).toBe('0');
    expect((await call(ada.token, 'GET', '/v3/sso/me/wallet/VND/deposits')).json().items[0].status).toBe('pending');
  });

  it('credit nothing for another amount, an unknown reference, another account or an expired order (200, matched false)', async () => {
    const ada = await person();
    const { reference } = (await order(ada.token, '300000')).json();
    expect((await notify(notification(reference, 299_999))).json()).toEqual({ matched: false });
    expect((await notify(notification('PDZZZZZZZZ', 300_000))).json()).toEqual({ matched: false });
    expect((await notify(notification(reference, 300_000, { description: 'chuyen tien' }))).json()).toEqual({ matched: false });
    expect((await notify(notification(reference, 300_000, { account_number: '999999' }))).json()).toEqual({ matched: false });
    expect(await vnd(ada.token)).toBe('0');

    // Expired: the transfer arrived after the order's time.
    await server.database.db.execute(sql`update wallet_deposit_orders set expires_at = now() - interval '1 minute' where reference = ${reference}`);
    expect((await call(ada.token, 'GET', '/v3/sso/me/wallet/VND/deposits')).json().items[0].status).toBe('expired');
    expect((await notify(notification(reference, 300_000))).json()).toEqual({ matched: false });
    expect(await vnd(ada.token)).toBe('0');
    const [row] = await rows<{ status: string }>(server.database.db, sql`select status from wallet_deposit_orders where reference = ${reference}`);
    expect(row!.status).toBe('expired');

    // Made within the order's time, reported late: credited.
    const late = (await order(ada.token, '40000')).json();
    await server.database.db.execute(sql`update wallet_deposit_orders set expires_at = now() - interval '1 minute' where reference = ${late.reference}`);
    expect((await notify(notification(late.reference, 40_000, { occurred_at: new Date(Date.now() - 10 * 60_000).toISOString() }))).json()).toEqual({ matched: true });
    expect(await vnd(ada.token)).toBe('40000');
  });

  it('refuse bodies that are not a notification (400), never a 500', async () => {
    for (const body of ['not json', '[]', '{}', JSON.stringify({ ...notification('PD00000000', 1), amount: -5 }), JSON.stringify({ ...notification('PD00000000', 1), transaction_id: 'a\u0000b' })]) {
      const response = await notify(body);
      expect(response.statusCode, body).toBe(400);
      expect(response.json().code).toBe('validation_error');
    }
    const plain = await server.app.inject({ method: 'POST', url: '/v3/wallet/bank-notifications', payload: 'x', headers: { 'content-type': 'text/plain' } });
    // Not JSON, so not the bytes the bank signs: refused before it is read.
    expect(plain.statusCode).toBe(401);
  });

  it('credit once under 10 parallel identical notifications, and once under 10 parallel transfers for one order', async () => {
    const ada = await person();
    const { reference } = (await order(ada.token, '777000')).json();
    const body = notification(reference, 777_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => notify(body)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.json().matched && !answer.json().duplicate)).toHaveLength(1);
    expect(answers.every((answer) => answer.json().matched)).toBe(true);
    expect(await vnd(ada.token)).toBe('777000');

    const second = (await order(ada.token, '10000')).json();
    const distinct = await Promise.all(Array.from({ length: 10 }, () => notify(notification(second.reference, 10_000))));
    expect(distinct.filter((answer) => answer.json().matched)).toHaveLength(1);
    expect(await vnd(ada.token)).toBe('787000');
    const [count] = await rows<{ n: number }>(server.database.db, sql`select count(*)::int as n from wallet_postings p join wallet_accounts a on a.id = p.account_id where a.user_id = ${ada.id}`);
    expect(count!.n).toBe(2);
    expect(await rows(server.database.db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
    // The entries of notifications that matched nothing were rolled back.
    expect(await rows(server.database.db, sql`select e.id from wallet_entries e left join wallet_postings p on p.entry_id = e.id where p.id is null`)).toEqual([]);
  });

  it('log a notification that matched nothing at warn, without the secret, the signature or the content', async () => {
    const lines: string[] = [];
    const capture = { info: (fields: object, message: string) => lines.push(JSON.stringify({ fields, message })), warn: (fields: object, message: string) => lines.push(JSON.stringify({ fields, message })) };
    const deposits = createDepositService({ db: server.database.db, clock: { now: () => new Date() }, config: { ...server.config }, log: capture });
    const body = JSON.stringify(notification('PDQQQQQQQQ', 12_345, { description: 'PDQQQQQQQQ NGUYEN VAN A 0909123456' }));
    const header = signBankNotification(SECRET, body, new Date());
    expect(await deposits.notify(Buffer.from(body), header)).toEqual({ matched: false });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('matched no pending order');
    expect(lines[0]).toContain('12345');
    for (const secret of [SECRET, header, header.split('v1=')[1]!, 'NGUYEN', '0909123456']) expect(lines[0]).not.toContain(secret);
    // A forged one: refused, logged without its signature.
    const forged = signBankNotification('forged-forged-forged-forged-forged-00', body, new Date());
    await expect(deposits.notify(Buffer.from(body), forged)).rejects.toMatchObject({ code: 'wallet.bank_signature_invalid' });
    expect(lines[1]).toContain('forged or stale signature');
    for (const secret of [SECRET, forged.split('v1=')[1]!, 'NGUYEN']) expect(lines[1]).not.toContain(secret);
  });
});

describe('without the deposit settings', () => {
  it('answers 503 wallet.deposits_unavailable to orders and notifications, and lists with enabled false', async () => {
    const off = await startTestServer({ database: server.database });
    try {
      const token = await identityClient(off.app, off.database).registeredUser(`deposit-off@example.com`);
      const refused = await off.app.inject({ method: 'POST', url: '/v3/sso/me/wallet/VND/deposits', payload: { amount: '10000' }, headers: { authorization: `Bearer ${token}` } });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'wallet.deposits_unavailable', message: 'Deposits by bank transfer are not available now' });
      const list = await off.app.inject({ method: 'GET', url: '/v3/sso/me/wallet/VND/deposits', headers: { authorization: `Bearer ${token}` } });
      expect(list.json()).toEqual({ enabled: false, items: [] });
      const body = JSON.stringify(notification('PDQQQQQQQQ', 1));
      const webhook = await off.app.inject({ method: 'POST', url: '/v3/wallet/bank-notifications', payload: body, headers: { 'content-type': 'application/json', 'x-bank-signature': signBankNotification(SECRET, body, new Date()) } });
      expect(webhook.statusCode).toBe(503);
    } finally {
      await off.close();
    }
  });
});
