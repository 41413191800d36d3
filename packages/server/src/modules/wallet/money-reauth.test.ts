import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../test/clock';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createWalletService, type WalletService } from './service';

/**
 * Money moves only on a recent proof of identity: a stolen cookie or a session left open is
 * refused (403 auth.reauth_required) before any rule of the transfer runs, and nothing moves;
 * the same request after POST /sso/me/reauth goes through.
 */
const PASSWORD = 'plum-orbit-cactus-917';
// Sign-ins happen 10 minutes in the past; the clock then jumps to now, past REAUTH_MAX_AGE_SECONDS (300).
const clock = manualClock(new Date(Date.now() - 10 * 60_000));
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let wallet: WalletService;
let partner: Server;
const partnerReceived: string[] = [];
let people = 0;

beforeAll(async () => {
  // The partner stand-in takes every transfer: what matters here is whether one reaches it.
  partner = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      partnerReceived.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(202, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
  server = await startTestServer({
    clock,
    env: { PARTNER_EXCHANGE_URL: `http://127.0.0.1:${(partner.address() as AddressInfo).port}`, PARTNER_EXCHANGE_SECRET: 'partner-exchange-secret-for-tests-0123456789', PARTNER_EXCHANGE_RETRY_SECONDS: '0' },
  });
  client = identityClient(server.app, server.database);
  wallet = createWalletService({ db: server.database.db, clock: { now: () => new Date() }, config: server.config, requireSecondFactor: async () => {} });
}, 60_000);
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => partner.close(resolve));
});

/** A person who signed in ten minutes ago (by the server's clock), with money in USD and VND unless `empty`. */
async function staleSession(empty = false): Promise<{ token: string; email: string }> {
  clock.set(new Date(Date.now() - 10 * 60_000));
  const email = `money-reauth${++people}@example.com`;
  const token = await client.registeredUser(email, PASSWORD);
  const id = (await server.app.inject({ method: 'GET', url: '/v3/sso/me', headers: { authorization: `Bearer ${token}` } })).json().id as string;
  if (!empty) {
    await wallet.adjust(id, 'USD', 10_000, 'opening balance');
    await wallet.adjust(id, 'VND', 1_000_000, 'opening balance');
  }
  clock.set(new Date());
  return { token, email };
}

const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const balances = async (token: string) =>
  Object.fromEntries(((await call(token, 'GET', '/v3/sso/me/wallet')).json().balances as { currency: string; minor: string }[]).map((item) => [item.currency, item.minor]));
const entries = async (token: string, currency: string) => (await call(token, 'GET', `/v3/sso/me/wallet/${currency}/transactions`)).json().total as number;
const reauthenticate = async (token: string) => expect((await call(token, 'POST', '/v3/sso/me/reauth', { password: PASSWORD })).statusCode).toBe(204);

describe('money moves only on a recent proof of identity', () => {
  it('refuses USD and VND transfers to another account on an old session, moving nothing; they go through after re-authentication', async () => {
    const alice = await staleSession();
    const bob = await staleSession(true);
    for (const currency of ['USD', 'VND']) {
      const refused = await call(alice.token, 'POST', `/v3/sso/me/wallet/${currency}/transfers`, { to: bob.email, amount: '10', idempotency_key: crypto.randomUUID() });
      expect(refused.statusCode, currency).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'auth.reauth_required' });
    }
    expect(await balances(alice.token)).toMatchObject({ USD: '10000', VND: '1000000' });
    expect(await balances(bob.token)).toMatchObject({ USD: '0', VND: '0' });
    expect(await entries(alice.token, 'USD')).toBe(1);

    await reauthenticate(alice.token);
    for (const currency of ['USD', 'VND']) {
      const sent = await call(alice.token, 'POST', `/v3/sso/me/wallet/${currency}/transfers`, { to: bob.email, amount: '10', idempotency_key: crypto.randomUUID() });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    expect(await balances(alice.token)).toMatchObject({ USD: '9000', VND: '999990' });
    expect(await balances(bob.token)).toMatchObject({ USD: '1000', VND: '10' });
  });

  it('refuses a partner transfer on an old session before it reaches the partner; it goes through after re-authentication', async () => {
    const alice = await staleSession();
    const before = partnerReceived.length;
    for (const currency of ['USD', 'VND']) {
      const refused = await call(alice.token, 'POST', `/v3/sso/me/wallet/${currency}/partner-transfers`, { to: 'bob@partner.example', amount: '10', idempotency_key: crypto.randomUUID() });
      expect(refused.statusCode, currency).toBe(403);
      expect(refused.json().code).toBe('auth.reauth_required');
    }
    expect(partnerReceived.length).toBe(before);
    expect(await balances(alice.token)).toMatchObject({ USD: '10000', VND: '1000000' });
    expect((await call(alice.token, 'GET', '/v3/sso/me/wallet/USD/partner-transfers')).json().items).toEqual([]);

    await reauthenticate(alice.token);
    const sent = await call(alice.token, 'POST', '/v3/sso/me/wallet/VND/partner-transfers', { to: 'bob@partner.example', amount: '10', idempotency_key: crypto.randomUUID() });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().status).toBe('pending');
    expect(partnerReceived.length).toBe(before + 1);
    expect(await balances(alice.token)).toMatchObject({ VND: '999990' });
  });

  it('asks for the proof before the WHC rules (two-step and its code) on a WHC transfer and a WHC withdrawal', async () => {
    const alice = await staleSession();
    const bob = await staleSession(true);
    const requests = [
      ['/v3/sso/me/wallet/WHC/transfers', { to: bob.email, amount: '1', idempotency_key: crypto.randomUUID(), code: '123456' }],
      ['/v3/sso/me/wallet/WHC/partner-transfers', { to: 'bob', amount: '1', idempotency_key: crypto.randomUUID(), code: '123456' }],
      ['/v3/sso/me/wallet/WHC/withdrawals', { address: '0x52908400098527886E0F7030069857D2E4169EE7', amount: '1', idempotency_key: crypto.randomUUID(), code: '123456' }],
    ] as const;
    for (const [url, body] of requests) {
      const refused = await call(alice.token, 'POST', url, body);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().code, url).toBe('auth.reauth_required');
    }
    await reauthenticate(alice.token);
    // Proved: each request now meets its own rules (two-step is off here; no chain is configured).
    expect((await call(alice.token, 'POST', requests[0][0], requests[0][1])).json().code).toBe('auth.two_factor_required');
    expect((await call(alice.token, 'POST', requests[1][0], requests[1][1])).json().code).toBe('auth.two_factor_required');
    expect((await call(alice.token, 'POST', requests[2][0], requests[2][1])).json().code).toBe('wallet.chain_unavailable');
  });

  it('asks for the proof before changing the payout wallet', async () => {
    const alice = await staleSession();
    const refused = await call(alice.token, 'PUT', '/v3/sso/me/wallet/payout', { payout_currency: 'VND' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('auth.reauth_required');
    await reauthenticate(alice.token);
    const chosen = await call(alice.token, 'PUT', '/v3/sso/me/wallet/payout', { payout_currency: 'VND' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().payout_currency).toBe('VND');
  });
});
