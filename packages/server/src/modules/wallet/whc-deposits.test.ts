import { sql } from 'drizzle-orm';
import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTokenAbi } from '../../../test/erc20';
import { identityClient } from '../../../test/identity';
import { startTestServer, type TestServer } from '../../../test/harness';
import { chainOf, startTestChain, testClientOf, type TestChain } from '../../../test/test-chain';
import { createWhcDepositFollower, type WhcDepositFollower } from './chain-follower';
import { rows } from './ledger';
import { createWhcDepositService, depositAddressAt, toLedgerUnits } from './whc-deposits';

// Test keys of a throwaway local chain (Hardhat's simulated network, in this process): never used anywhere else.
const FUNDER_KEY = `0x${'3b'.repeat(32)}` as Hex;
const funder = privateKeyToAccount(FUNDER_KEY);
/** The operator's seed: the server is given only the xpub of m/44'/60'/0'/0. */
const MASTER = HDKey.fromMasterSeed(Uint8Array.from({ length: 32 }, (_, index) => index + 1));
const XPUB = MASTER.derive("m/44'/60'/0'/0").publicExtendedKey;
const DECIMALS = 18;
const CONFIRMATIONS = 3;
const WHC = 10n ** 18n;

let chain: TestChain;
let rpcUrl: string;
let token: Address;
let server: TestServer;
let client: ReturnType<typeof identityClient>;
let people = 0;
const silent = { info: () => {}, warn: () => {} };

const reader = () => createPublicClient({ chain: chainOf(rpcUrl), transport: http(rpcUrl) });
const tester = () => testClientOf(rpcUrl);
const mine = (blocks: number) => tester().mine({ blocks });

/** Sends `units` of the token from the funder to `to` (mined at once: the chain's automine), answering its block. */
async function send(to: Address, units: bigint): Promise<{ hash: Hex; block: bigint }> {
  const wallet = createWalletClient({ account: funder, chain: chainOf(rpcUrl), transport: http(rpcUrl) });
  const hash = await wallet.writeContract({ address: token, abi: testTokenAbi, functionName: 'transfer', args: [to, units] });
  const receipt = await reader().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return { hash, block: receipt.blockNumber };
}

/** Another node's follower over the same database and chain. */
const follower = (overrides: Partial<TestServer['config']> = {}): WhcDepositFollower =>
  createWhcDepositFollower({ db: server.database.db, clock: { now: () => new Date() }, config: { ...server.config, ...overrides }, log: silent });

beforeAll(async () => {
  chain = await startTestChain(FUNDER_KEY, { decimals: DECIMALS, blocked: funder.address, supply: 10n ** 6n * WHC });
  ({ rpcUrl, token } = chain);

  server = await startTestServer({
    env: {
      WHC_CHAIN_RPC_URL: rpcUrl,
      WHC_TOKEN_ADDRESS: token,
      WHC_DEPOSIT_XPUB: XPUB,
      WHC_TOKEN_DECIMALS: String(DECIMALS),
      WHC_CONFIRMATIONS: String(CONFIRMATIONS),
      WHC_DEPOSIT_SCAN_BLOCKS: '50',
      WHC_CHAIN_POLL_SECONDS: '0',
    },
  });
  client = identityClient(server.app, server.database);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

const call = (session: string, method: 'GET' | 'POST', url: string) => server.app.inject({ method, url, headers: { authorization: `Bearer ${session}` } });
const whc = async (session: string) => ((await call(session, 'GET', '/v3/sso/me/wallet')).json().balances as { currency: string; minor: string }[]).find((item) => item.currency === 'WHC')!.minor;
const deposits = async (session: string) => (await call(session, 'GET', '/v3/sso/me/wallet/WHC/deposits')).json() as { items: { tx_hash: string; status: string; amount: string; confirmations: number }[] };

/** A signed-in person and their deposit address. */
async function person(): Promise<{ session: string; id: string; address: Address }> {
  const session = await client.registeredUser(`whcdeposit${++people}@example.com`);
  const id = (await call(session, 'GET', '/v3/sso/me')).json().id as string;
  const answer = await call(session, 'POST', '/v3/sso/me/wallet/WHC/deposit-address');
  expect(answer.statusCode, answer.body).toBe(200);
  return { session, id, address: answer.json().address as Address };
}

/** Follows until the cursor reaches the head (each poll is bounded). */
async function catchUp(node: WhcDepositFollower = follower()) {
  const head = Number(await reader().getBlockNumber({ cacheTime: 0 }));
  for (let poll = 0; poll < 20; poll += 1) {
    const result = await node.follow();
    if (result.to === head) return result;
  }
  throw new Error('the follower did not reach the head');
}

/** Every entry balanced, every balance equal to its postings, and one credit per deposit. */
async function ledgerHolds() {
  const db = server.database.db;
  expect(await rows(db, sql`select entry_id from wallet_postings group by entry_id, currency having sum(amount) <> 0`)).toEqual([]);
  expect(await rows(db, sql`select a.id from wallet_accounts a left join wallet_postings p on p.account_id = a.id group by a.id having a.balance <> coalesce(sum(p.amount), 0)`)).toEqual([]);
  expect(await rows(db, sql`select d.id from wallet_whc_deposits d join wallet_entries e on e.id = d.entry_id group by d.id having count(*) <> 1`)).toEqual([]);
  expect(await rows(db, sql`select e.id from wallet_entries e left join wallet_whc_deposits d on d.entry_id = e.id where e.note like 'BEP20 deposit %' and d.id is null`)).toEqual([]);
}

describe('WHC deposit addresses', () => {
  it('derives from the xpub the addresses the operator\'s seed spends from (m/44\'/60\'/0\'/0/i)', () => {
    for (const index of [0, 1, 2, 77, 2 ** 31 - 1]) expect(depositAddressAt(XPUB, index)).toBe(hdKeyToAccount(MASTER, { addressIndex: index }).address);
  });

  it('converts the token units to the ledger\'s 8 decimals exactly, keeping what is below as dust', () => {
    expect(toLedgerUnits(15n * 10n ** 17n, 18)).toEqual({ minor: 150_000_000n, dust: 0n });
    expect(toLedgerUnits(10n ** 18n + 10n ** 9n + 7n, 18)).toEqual({ minor: 100_000_000n, dust: 10n ** 9n + 7n });
    expect(toLedgerUnits(1n, 18)).toEqual({ minor: 0n, dust: 1n });
    expect(toLedgerUnits(123n, 8)).toEqual({ minor: 123n, dust: 0n });
    expect(toLedgerUnits(5n, 6)).toEqual({ minor: 500n, dust: 0n });
  });

  it('gives each person one address, the same on every request, unique under parallel first requests', async () => {
    // Signed up one after the other (the test client's mail reading is not made for parallel sign-ups); then asked at once.
    const sessions: string[] = [];
    for (let count = 0; count < 6; count += 1) sessions.push(await client.registeredUser(`parallel${++people}@example.com`));
    const answers = await Promise.all(sessions.flatMap((session) => [1, 2, 3].map(() => call(session, 'POST', '/v3/sso/me/wallet/WHC/deposit-address'))));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const addresses = answers.map((answer) => answer.json().address as string);
    for (let person = 0; person < sessions.length; person += 1) expect(new Set(addresses.slice(person * 3, person * 3 + 3)).size).toBe(1);
    expect(new Set(addresses).size).toBe(sessions.length);
    const first = answers[0]!.json();
    expect(first).toMatchObject({ network: 'BEP20', confirmations: CONFIRMATIONS });
    expect(first.qr_image).toMatch(/^data:image\/png;base64,/);
    // Each address is the xpub's child at the person's stored index.
    const stored = await rows<{ address_index: number; address: string }>(server.database.db, sql`select address_index, address from wallet_whc_deposit_addresses`);
    for (const row of stored) expect(row.address).toBe(depositAddressAt(XPUB, row.address_index));
    expect(new Set(stored.map((row) => row.address_index)).size).toBe(stored.length);
  });

  it('answers wallet.whc_deposits_unavailable without the chain configured, and lists nothing', async () => {
    const off = createWhcDepositService({ db: server.database.db, clock: { now: () => new Date() }, config: { ...server.config, WHC_DEPOSIT_XPUB: undefined }, log: silent });
    expect(off.enabled).toBe(false);
    await expect(off.address('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ code: 'wallet.whc_deposits_unavailable' });
    expect((await off.list('00000000-0000-0000-0000-000000000000')).enabled).toBe(false);
    expect(await follower({ WHC_DEPOSIT_XPUB: undefined }).follow()).toMatchObject({ busy: false, seen: 0 });
  });
});

describe('the WHC deposit follower', () => {
  it(`credits a transfer once, after ${CONFIRMATIONS} confirmations and not before`, async () => {
    const ada = await person();
    await catchUp();
    const { hash } = await send(ada.address, 2n * WHC + 5n * 10n ** 17n);
    await catchUp();
    // One confirmation (its own block): seen, pending, nothing credited.
    expect(await whc(ada.session)).toBe('0');
    expect((await deposits(ada.session)).items).toMatchObject([{ tx_hash: hash, status: 'pending', amount: '250000000', confirmations: 1 }]);
    await mine(1);
    await catchUp();
    expect(await whc(ada.session)).toBe('0');
    expect((await deposits(ada.session)).items).toMatchObject([{ status: 'pending', confirmations: 2 }]);
    await mine(1);
    await catchUp();
    expect(await whc(ada.session)).toBe('250000000');
    expect((await deposits(ada.session)).items).toMatchObject([{ tx_hash: hash, status: 'completed', confirmations: CONFIRMATIONS }]);
    // More blocks, more polls: credited once.
    await mine(2);
    await catchUp();
    await catchUp();
    expect(await whc(ada.session)).toBe('250000000');
    const list = (await call(ada.session, 'GET', '/v3/sso/me/wallet/WHC/transactions')).json();
    expect(list.items).toMatchObject([{ direction: 'in', amount: '250000000', balance: '250000000', status: 'completed', note: `BEP20 deposit ${hash.slice(0, 10)}…${hash.slice(-8)}` }]);
    await ledgerHolds();
  });

  it('ignores tokens sent to an address nobody owns', async () => {
    await catchUp();
    const stranger = privateKeyToAccount(`0x${'9a'.repeat(32)}`).address;
    const { hash } = await send(stranger, 3n * WHC);
    await mine(CONFIRMATIONS);
    const result = await catchUp();
    expect(result.seen).toBe(0);
    expect(await rows(server.database.db, sql`select id from wallet_whc_deposits where tx_hash = ${hash}`)).toEqual([]);
  });

  it('credits what the ledger can hold and ignores a transfer below 10^-8 WHC', async () => {
    const bob = await person();
    await catchUp();
    const dusty = await send(bob.address, WHC + 10n ** 9n + 7n);
    const tiny = await send(bob.address, 1n);
    await mine(CONFIRMATIONS);
    await catchUp();
    expect(await whc(bob.session)).toBe('100000000');
    const items = (await deposits(bob.session)).items;
    expect(items.find((item) => item.tx_hash === dusty.hash)).toMatchObject({ status: 'completed', amount: '100000000' });
    expect(items.find((item) => item.tx_hash === tiny.hash)).toMatchObject({ status: 'ignored', amount: '0' });
    const [stored] = await rows<{ amount_token: string }>(server.database.db, sql`select amount_token::text as amount_token from wallet_whc_deposits where tx_hash = ${dusty.hash}`);
    expect(stored!.amount_token).toBe((WHC + 10n ** 9n + 7n).toString());
    await ledgerHolds();
  });

  it('resumes from its cursor after a restart, crediting what it saw before once', async () => {
    const cleo = await person();
    await catchUp();
    const { hash } = await send(cleo.address, 4n * WHC);
    await catchUp();
    expect((await deposits(cleo.session)).items).toMatchObject([{ tx_hash: hash, status: 'pending' }]);
    const [before] = await rows<{ next_block: string }>(server.database.db, sql`select next_block::text as next_block from wallet_chain_cursors`);
    // A restart: a new follower (no state but the database's) and blocks mined meanwhile.
    await mine(CONFIRMATIONS + 5);
    const restarted = follower();
    const first = await restarted.follow();
    expect(first.from).toBe(Number(before!.next_block) - CONFIRMATIONS);
    await catchUp(restarted);
    expect(await whc(cleo.session)).toBe('400000000');
    await catchUp(follower());
    expect(await whc(cleo.session)).toBe('400000000');
    await ledgerHolds();
  });

  it('credits once with two followers polling in parallel', async () => {
    const group = [await person(), await person(), await person()];
    await catchUp();
    for (const [index, member] of group.entries()) await send(member.address, BigInt(index + 1) * WHC);
    const nodes = [follower(), follower()];
    const results = [];
    for (let round = 0; round < CONFIRMATIONS + 2; round += 1) {
      results.push(...(await Promise.all(nodes.flatMap((node) => [node.follow(), node.follow()]))));
      await mine(1);
    }
    // On PostgreSQL a poll finding the cursor taken skips its round (PGlite runs them one after the other).
    if (server.database.kind === 'postgres') expect(results.some((result) => result.busy)).toBe(true);
    await Promise.all(nodes.map((node) => catchUp(node)));
    for (const [index, member] of group.entries()) expect(await whc(member.session)).toBe(String((index + 1) * 100_000_000));
    await ledgerHolds();
  });

  it('drops a pending deposit a reorg took away, and a re-scan of credited blocks credits nothing again', async () => {
    const dan = await person();
    await catchUp();
    const credited = await send(dan.address, 5n * WHC);
    await mine(CONFIRMATIONS);
    await catchUp();
    expect(await whc(dan.session)).toBe('500000000');

    // A transfer seen, then gone: the chain goes back to before it (a reorg shallower than the confirmations).
    const snapshot = await tester().snapshot();
    const orphan = await send(dan.address, 7n * WHC);
    await catchUp();
    expect((await deposits(dan.session)).items.find((item) => item.tx_hash === orphan.hash)).toMatchObject({ status: 'pending' });
    await tester().revert({ id: snapshot });
    await mine(CONFIRMATIONS + 1);
    await catchUp();
    expect((await deposits(dan.session)).items.find((item) => item.tx_hash === orphan.hash)).toBeUndefined();
    expect(await whc(dan.session)).toBe('500000000');

    // The cursor set back by hand (an operator's re-scan): the credited transfer is found again, credited once.
    await server.database.db.execute(sql`update wallet_chain_cursors set next_block = ${Number(credited.block) - 1}`);
    await catchUp();
    expect(await whc(dan.session)).toBe('500000000');
    expect((await deposits(dan.session)).items).toMatchObject([{ tx_hash: credited.hash, status: 'completed' }]);
    await ledgerHolds();
  });
});
