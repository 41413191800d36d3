import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTokenAbi } from '../../../test/erc20';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { chainOf, startTestChain, testClientOf, type TestChain } from '../../../test/test-chain';
import { roomyTotpEpoch } from '../../../test/totp';
import { createChainWithdrawalService, toTokenUnits, type ChainWithdrawalService } from './chain';
import { rows } from './ledger';
import { createWalletService, type WalletService } from './service';

// Test keys of a throwaway local chain (Hardhat's simulated network, in this process): never used anywhere else.
const SIGNER_KEY = `0x${'4c'.repeat(32)}` as Hex;
const signer = privateKeyToAccount(SIGNER_KEY);
const RECIPIENT = privateKeyToAccount(`0x${'5d'.repeat(32)}`).address;
/** The test token's transfer to this address reverts (test/erc20/TestToken.sol). */
const BLOCKED = privateKeyToAccount(`0x${'6e'.repeat(32)}`).address;
/** Another recipient, for the lost broadcasts. */
const OTHER = privateKeyToAccount(`0x${'7f'.repeat(32)}`).address;
const DECIMALS = 18;
const WHC = 10 ** 8;

let chain: TestChain;
let rpcUrl: string;
let token: Address;
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let wallet: WalletService;
let people = 0;
const silent = { info: () => {}, warn: () => {} };
const unused = async () => {
  throw new Error('not used');
};
/** Another node's sender and follower over the same database and chain. */
const node = (overrides: Partial<TestServer['config']> = {}): ChainWithdrawalService =>
  createChainWithdrawalService({ db: server.database.db, clock: { now: () => new Date() }, config: { ...server.config, ...overrides }, log: silent, requireSecondFactor: unused, confirmPassword: unused });

const reader = () => createPublicClient({ chain: chainOf(rpcUrl), transport: http(rpcUrl) });
const tokenBalance = (address: Address) => reader().readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [address] });

beforeAll(async () => {
  // The token: its whole supply with the signer, as an operator funds the hot wallet.
  chain = await startTestChain(SIGNER_KEY, { decimals: DECIMALS, blocked: BLOCKED, supply: 10n ** 6n * 10n ** 18n });
  ({ rpcUrl, token } = chain);

  server = await startTestServer({
    env: { WHC_CHAIN_RPC_URL: rpcUrl, WHC_TOKEN_ADDRESS: token, WHC_SIGNER_KEY: SIGNER_KEY, WHC_TOKEN_DECIMALS: String(DECIMALS), WHC_CHAIN_POLL_SECONDS: '0' },
  });
  client = identityClient(server.app, server.database);
  wallet = createWalletService({ db: server.database.db, clock: { now: () => new Date() }, config: server.config, requireSecondFactor: unused });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) => server.app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const withdraw = (token: string, body: Record<string, unknown>) => call(token, 'POST', '/v3/sso/me/wallet/WHC/withdrawals', { idempotency_key: crypto.randomUUID(), ...body });
const whc = async (token: string) => ((await call(token, 'GET', '/v3/sso/me/wallet')).json().balances as { currency: string; minor: string }[]).find((item) => item.currency === 'WHC')!.minor;

/** A signed-in person with WHC, and two-step on (TOTP) unless asked: their session, id and recovery codes. */
async function person(options: { twoStep?: boolean; whc?: number } = {}): Promise<{ token: string; id: string; codes: string[] }> {
  const email = `chain${++people}@example.com`;
  const token = await client.registeredUser(email);
  const id = (await call(token, 'GET', '/v3/sso/me')).json().id as string;
  await wallet.adjust(id, 'WHC', (options.whc ?? 10) * WHC, 'opening balance');
  if (options.twoStep === false) return { token, id, codes: [] };
  const { generate } = await import('otplib');
  const { secret } = (await call(token, 'POST', '/v3/sso/me/2fa/totp/setup', {})).json();
  const enabled = await call(token, 'POST', '/v3/sso/me/2fa/totp/enable', { code: await generate({ secret, epoch: await roomyTotpEpoch() }) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { token, id, codes: enabled.json().recovery_codes as string[] };
}

/** Every entry balanced, every balance equal to its postings. */
async function ledgerHolds() {
  const db = server.database.db;
  expect(await rows(db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
  expect(await rows(db, sql`select a.id from wallet_accounts a left join wallet_postings p on p.account_id = a.id group by a.id having a.balance <> coalesce(sum(p.amount), 0)`)).toEqual([]);
}

describe('WHC withdrawals to BEP20 addresses', () => {
  it('converts ledger units to the token decimals exactly', () => {
    expect(toTokenUnits(150_000_000, 18)).toBe(1_500_000_000_000_000_000n);
    expect(toTokenUnits(150_000_000, 8)).toBe(150_000_000n);
    expect(toTokenUnits(150_000_000, 6)).toBe(1_500_000n);
    expect(toTokenUnits(150_000_001, 6)).toBeNull();
  });

  it('answers wallet.chain_unavailable without a signer configured', async () => {
    const off = createChainWithdrawalService({
      db: server.database.db,
      clock: { now: () => new Date() },
      config: { ...server.config, WHC_CHAIN_RPC_URL: undefined, WHC_TOKEN_ADDRESS: undefined, WHC_SIGNER_KEY: undefined },
      log: silent,
      requireSecondFactor: unused,
      confirmPassword: unused,
    });
    expect(off.enabled).toBe(false);
    await expect(off.withdraw('00000000-0000-0000-0000-000000000000', { address: RECIPIENT, amount: '1', idempotency_key: 'unavailable-1' })).rejects.toMatchObject({ code: 'wallet.chain_unavailable' });
  });

  it('refuses without two-step, with a wrong checksum, and a new address without the password, moving nothing', async () => {
    const plain = await person({ twoStep: false });
    const off = await withdraw(plain.token, { address: RECIPIENT, amount: '1', password: 'plum-orbit-cactus-917' });
    expect([off.statusCode, off.json().code]).toEqual([403, 'auth.two_factor_required']);

    const alice = await person();
    // One letter's case flipped: the EIP-55 checksum no longer holds.
    const flipped = RECIPIENT.replace(/[a-f]/, (letter) => letter.toUpperCase());
    expect(flipped).not.toBe(RECIPIENT);
    for (const address of [flipped, '0x1234', 'not an address', `${RECIPIENT}00`, '0x0000000000000000000000000000000000000000', token]) {
      const refused = await withdraw(alice.token, { address, amount: '1', recovery_code: alice.codes[0] });
      expect([refused.statusCode, refused.json().code], address).toEqual([400, 'wallet.address_invalid']);
    }
    const noPassword = await withdraw(alice.token, { address: RECIPIENT, amount: '1', recovery_code: alice.codes[0] });
    expect([noPassword.statusCode, noPassword.json().code]).toEqual([400, 'wallet.password_required']);
    const wrongPassword = await withdraw(alice.token, { address: RECIPIENT, amount: '1', recovery_code: alice.codes[0], password: 'not-my-password' });
    expect([wrongPassword.statusCode, wrongPassword.json().code]).toEqual([400, 'auth.password_not_valid']);
    const noCode = await withdraw(alice.token, { address: RECIPIENT, amount: '1', password: 'plum-orbit-cactus-917' });
    expect(noCode.json().code).toBe('auth.code_invalid');
    expect((await withdraw(alice.token, { address: RECIPIENT, amount: '0', recovery_code: alice.codes[0], password: 'plum-orbit-cactus-917' })).json().code).toBe('wallet.amount_invalid');
    expect((await withdraw(alice.token, { address: RECIPIENT, amount: '11', recovery_code: alice.codes[0], password: 'plum-orbit-cactus-917' })).json().code).toBe('wallet.insufficient_balance');
    expect(await whc(alice.token)).toBe(String(10 * WHC));
    // The refusals spent no code: the first recovery code still sends.
    const sent = await withdraw(alice.token, { address: RECIPIENT.toLowerCase(), amount: '1', recovery_code: alice.codes[0], password: 'plum-orbit-cactus-917' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ address: RECIPIENT, status: 'pending', tx_hash: null });
    await node().run();
  });

  it('sends on chain once, completes after the confirmations, and the recipient holds the tokens', async () => {
    const alice = await person();
    const before = await tokenBalance(RECIPIENT);
    const body = { address: RECIPIENT, amount: '1.5', recovery_code: alice.codes[0], password: 'plum-orbit-cactus-917', idempotency_key: 'chain-confirmed-0001' };
    const sent = await withdraw(alice.token, body);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ currency: 'WHC', address: RECIPIENT, amount: String(1.5 * WHC), status: 'pending' });
    expect(await whc(alice.token)).toBe(String(8.5 * WHC));
    // A retry answers the same withdrawal without another code, before and after it is sent.
    expect((await withdraw(alice.token, { ...body, recovery_code: undefined })).json().id).toBe(sent.json().id);
    const [first, second] = [node(), node()];
    const sentBy = await Promise.all([first.sendPending(), second.sendPending()]);
    expect(sentBy[0] + sentBy[1]).toBe(1);
    const again = await withdraw(alice.token, { ...body, recovery_code: undefined, password: undefined });
    expect(again.json()).toMatchObject({ id: sent.json().id, status: 'pending' });
    expect(again.json().tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await first.sendPending()).toBe(0);
    expect(await tokenBalance(RECIPIENT)).toBe(before + 15n * 10n ** 17n);

    // Two confirmations asked: the transaction's own block is one; a block on top makes two.
    const careful = node({ WHC_CONFIRMATIONS: 2 });
    expect(await careful.followPending()).toEqual({ completed: 0, failed: 0 });
    await testClientOf(rpcUrl).mine({ blocks: 1 });
    expect(await careful.followPending()).toEqual({ completed: 1, failed: 0 });
    expect(await first.followPending()).toEqual({ completed: 0, failed: 0 });
    const listed = (await call(alice.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals')).json();
    expect(listed).toMatchObject({ enabled: true, items: [{ id: sent.json().id, status: 'completed', tx_hash: again.json().tx_hash }] });
    const transactions = (await call(alice.token, 'GET', '/v3/sso/me/wallet/WHC/transactions')).json();
    expect(transactions.items[0]).toMatchObject({ id: sent.json().entry_id, direction: 'out', status: 'completed', destination: RECIPIENT, amount: String(1.5 * WHC) });
    expect(await whc(alice.token)).toBe(String(8.5 * WHC));

    // The address is known now: the next withdrawal to it needs a code, not the password.
    const next = await withdraw(alice.token, { address: RECIPIENT, amount: '0.25', recovery_code: alice.codes[1] });
    expect(next.statusCode, next.body).toBe(201);
    await node().run();
    await ledgerHolds();
  });

  it('resends a withdrawal stuck unmined with the same nonce and a higher gas price: one transfer, settled by the signing mined', async () => {
    const carol = await person();
    const STUCK = privateKeyToAccount(`0x${'8a'.repeat(32)}`).address;
    const sent = await withdraw(carol.token, { address: STUCK, amount: '3', recovery_code: carol.codes[0], password: 'plum-orbit-cactus-917' });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json().id as string;
    // The chain takes transactions but mines none: the signed withdrawal waits in the pool, as one with too low a price would.
    await testClientOf(rpcUrl).setAutomine(false);
    try {
      expect(await node().sendPending()).toBe(1);
      expect(await node().followPending()).toEqual({ completed: 0, failed: 0 });
      const [before] = await rows<{ tx_hash: string; nonce: string }>(server.database.db, sql`select tx_hash, nonce::text as nonce from wallet_chain_withdrawals where id = ${id}`);
      const resent = await node().resend(id, 10n ** 12n);
      expect(resent.replaced).toBe(before!.tx_hash);
      expect(resent.hash).not.toBe(before!.tx_hash);
      expect(resent.gasPrice).toBe(10n ** 12n);
      const [after] = await rows<{ tx_hash: string; nonce: string; replaced_tx_hashes: string[] }>(server.database.db, sql`select tx_hash, nonce::text as nonce, replaced_tx_hashes from wallet_chain_withdrawals where id = ${id}`);
      expect(after).toEqual({ tx_hash: resent.hash, nonce: before!.nonce, replaced_tx_hashes: [before!.tx_hash] });
    } finally {
      await testClientOf(rpcUrl).setAutomine(true);
    }
    await testClientOf(rpcUrl).mine({ blocks: 1 });
    expect(await node().followPending()).toMatchObject({ completed: 1 });
    // One nonce: one transfer; the pool took the higher price.
    expect((await reader().getTransactionReceipt({ hash: (await node().list(carol.id)).items[0]!.tx_hash as Hex })).status).toBe('success');
    expect(await tokenBalance(STUCK)).toBe(3n * 10n ** 18n);
    expect((await call(carol.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals')).json().items[0]).toMatchObject({ id, status: 'completed' });
    expect(await whc(carol.token)).toBe(String(7 * WHC));
    await expect(node().resend(id)).rejects.toThrow('is completed: nothing to resend');
    await ledgerHolds();
  });

  it('settles a resent withdrawal by its earlier signing when that is the one the chain mined', async () => {
    const dave = await person();
    const sent = await withdraw(dave.token, { address: RECIPIENT, amount: '1', recovery_code: dave.codes[0], password: 'plum-orbit-cactus-917' });
    const id = sent.json().id as string;
    expect(await node().sendPending()).toBe(1);
    // As if a resend had been signed just as the first signing was mined: the stored hash is the new one, never mined.
    await server.database.db.execute(sql`update wallet_chain_withdrawals set replaced_tx_hashes = array[tx_hash], tx_hash = ${`0x${'ab'.repeat(32)}`} where id = ${id}`);
    expect(await node().followPending()).toMatchObject({ completed: 1 });
    expect((await call(dave.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals')).json().items[0]).toMatchObject({ id, status: 'completed' });
    expect(await whc(dave.token)).toBe(String(9 * WHC));
  });

  it('fails a reverted transfer and returns the amount exactly once, however many followers run', async () => {
    const bob = await person();
    const sent = await withdraw(bob.token, { address: BLOCKED, amount: '2', recovery_code: bob.codes[0], password: 'plum-orbit-cactus-917' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await whc(bob.token)).toBe(String(8 * WHC));
    expect(await node().sendPending()).toBe(1);
    const hash = (await call(bob.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals')).json().items[0].tx_hash as Hex;
    expect((await reader().getTransactionReceipt({ hash })).status).toBe('reverted');
    expect(await tokenBalance(BLOCKED)).toBe(0n);

    const results = await Promise.all([node().followPending(), node().followPending(), node().followPending()]);
    expect(results.reduce((sum, result) => sum + result.failed, 0)).toBe(1);
    expect(await node().followPending()).toEqual({ completed: 0, failed: 0 });
    expect(await whc(bob.token)).toBe(String(10 * WHC));
    // The refund gave the day's allowance back with the money, in the same transaction.
    const today = new Date().toISOString().slice(0, 10);
    expect(await rows(server.database.db, sql`select sent::text as sent from wallet_daily_usage where user_id = ${bob.id} and currency = 'WHC' and day = ${today}`)).toEqual([{ sent: '0' }]);
    const listed = (await call(bob.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals')).json();
    expect(listed.items[0]).toMatchObject({ id: sent.json().id, status: 'failed' });
    const transactions = (await call(bob.token, 'GET', '/v3/sso/me/wallet/WHC/transactions')).json().items as { id: string; direction: string; status: string; amount: string }[];
    expect(transactions.find((item) => item.id === sent.json().entry_id)).toMatchObject({ direction: 'out', status: 'failed' });
    expect(transactions.filter((item) => item.direction === 'in' && item.amount === String(2 * WHC) && item.status === 'completed')).toHaveLength(1);
    await ledgerHolds();
  });

  it('sends a lost broadcast again as the same transaction, never as a second one', async () => {
    // A node between us and the chain: first it drops the broadcast, then it delivers it but loses the answer.
    let mode: 'drop' | 'lose-answer' = 'drop';
    const proxy = createServer((request, reply) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const message = JSON.parse(body) as { id: number; method: string };
        const sending = message.method === 'eth_sendRawTransaction';
        if (sending && mode === 'drop') {
          reply.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'connection reset' } }));
          return;
        }
        void fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (upstream) => {
          const text = await upstream.text();
          if (sending) reply.writeHead(502).end('bad gateway');
          else reply.writeHead(200, { 'content-type': 'application/json' }).end(text);
        });
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address();
    const flaky = node({ WHC_CHAIN_RPC_URL: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    try {
      const dave = await person();
      const nonceBefore = await reader().getTransactionCount({ address: signer.address });
      const sent = await withdraw(dave.token, { address: OTHER, amount: '1', recovery_code: dave.codes[0], password: 'plum-orbit-cactus-917' });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(await flaky.sendPending()).toBe(0);
      const [stored] = (await call(dave.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals')).json().items as { tx_hash: Hex; status: string }[];
      expect(stored).toMatchObject({ status: 'pending' });
      await expect(reader().getTransactionReceipt({ hash: stored!.tx_hash })).rejects.toThrow();
      expect(await flaky.sendPending()).toBe(0);

      mode = 'lose-answer';
      expect(await flaky.followPending()).toEqual({ completed: 0, failed: 0 });
      expect(await node().followPending()).toEqual({ completed: 1, failed: 0 });
      expect(await node().run()).toEqual({ sent: 0, completed: 0, failed: 0 });
      expect(await tokenBalance(OTHER)).toBe(10n ** 18n);
      expect(await reader().getTransactionCount({ address: signer.address })).toBe(nonceBefore + 1);
      expect((await reader().getTransactionReceipt({ hash: stored!.tx_hash })).status).toBe('success');
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('never puts the signer key in an answer', async () => {
    const carol = await person();
    const sent = await withdraw(carol.token, { address: RECIPIENT, amount: '0.1', recovery_code: carol.codes[0], password: 'plum-orbit-cactus-917' });
    // Nor in a log line: what the sender and follower log, a failed broadcast included.
    const lines: string[] = [];
    const capture = { info: (fields: object, message: string) => lines.push(JSON.stringify({ fields, message })), warn: (fields: object, message: string) => lines.push(JSON.stringify({ fields, message })) };
    const logged = createChainWithdrawalService({ db: server.database.db, clock: { now: () => new Date() }, config: server.config, log: capture, requireSecondFactor: unused, confirmPassword: unused });
    expect(await logged.run()).toEqual({ sent: 1, completed: 1, failed: 0 });
    const offline = createChainWithdrawalService({ db: server.database.db, clock: { now: () => new Date() }, config: { ...server.config, WHC_CHAIN_RPC_URL: 'http://127.0.0.1:9' }, log: capture, requireSecondFactor: unused, confirmPassword: unused });
    await withdraw(carol.token, { address: RECIPIENT, amount: '0.1', recovery_code: carol.codes[1] });
    await expect(offline.run()).rejects.toThrow();
    await node().run();
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.toLowerCase()).not.toContain(SIGNER_KEY.slice(2).toLowerCase());
    const listed = await call(carol.token, 'GET', '/v3/sso/me/wallet/WHC/withdrawals');
    for (const text of [sent.body, listed.body]) expect(text.toLowerCase()).not.toContain(SIGNER_KEY.slice(2).toLowerCase());
  });
});
