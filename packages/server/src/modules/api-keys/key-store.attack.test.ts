import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, operatorApiKeys, users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { fileDatabase } from '../../../test/db-target';
import { countStatements } from '../../../test/statement-counter';
import { bearerKeyStore } from './key-store';

/**
 * The one store behind personal API keys and operators' admin keys, asked what an attacker
 * would: does a key of one kind open the other, does one person's key or revocation reach
 * another's, does a revoked key still work, does every call write?
 */
const clock = manualClock();
const database = fileDatabase();
let personal: ReturnType<typeof bearerKeyStore>;
let operator: ReturnType<typeof bearerKeyStore>;
const alice = randomUUID();
const bob = randomUUID();

beforeAll(async () => {
  const now = clock.now();
  await database.db.insert(users).values(
    [alice, bob].map((id, n) => ({ id, email: `key-store-${n}@example.com`, fullName: 'Key Store', activatedAt: now, createdAt: now, updatedAt: now })),
  );
  personal = bearerKeyStore(database.db, clock, apiKeys);
  operator = bearerKeyStore(database.db, clock, operatorApiKeys);
});

const updatesDuring = async (run: () => Promise<unknown>) => (await countStatements(run, { settleMs: 0 })).texts.filter((text) => /^\s*update/i.test(text)).length;

describe('one bearer key store over two tables', () => {
  it("a personal key never authenticates as an operator key, nor an operator key as a person's", async () => {
    const { key: personalKey } = await personal.create(alice, { name: 'Mine', scopes: ['me:read'] });
    const { key: operatorKey } = await operator.create(alice, { name: 'Console', scopes: ['admin:dashboard'] });
    expect((await personal.authenticate(personalKey))?.user.id).toBe(alice);
    expect((await operator.authenticate(operatorKey))?.user.id).toBe(alice);
    expect(await operator.authenticate(personalKey)).toBeNull();
    expect(await personal.authenticate(operatorKey)).toBeNull();
  });

  it('a revoked key is refused at once; another person can neither revoke it nor list it', async () => {
    const { row, key } = await personal.create(alice, { name: 'Short', scopes: ['me:read'] });
    expect(await personal.revoke(bob, row.id)).toBe(false);
    expect((await personal.liveKeysOf(bob)).map((k) => k.id)).not.toContain(row.id);
    expect(await personal.authenticate(key)).not.toBeNull();
    expect(await personal.revoke(alice, row.id)).toBe(true);
    expect(await personal.authenticate(key)).toBeNull();
    expect(await personal.revoke(alice, row.id)).toBe(false);
  });

  it("revoke all ends only its owner's keys of its own table", async () => {
    const { key: aliceOperator } = await operator.create(alice, { name: 'Alice console', scopes: ['admin:dashboard'] });
    const { key: bobOperator } = await operator.create(bob, { name: 'Bob console', scopes: ['admin:dashboard'] });
    const { key: alicePersonal } = await personal.create(alice, { name: 'Alice personal', scopes: ['me:read'] });
    await operator.revokeAll(alice);
    expect(await operator.authenticate(aliceOperator)).toBeNull();
    expect((await operator.authenticate(bobOperator))?.user.id).toBe(bob);
    expect((await personal.authenticate(alicePersonal))?.user.id).toBe(alice);
    expect(await operator.liveKeysOf(alice)).toEqual([]);
  });

  it('records use at most once a minute, not a write per call, in each table', async () => {
    for (const store of [personal, operator]) {
      const { row, key } = await store.create(bob, { name: 'Busy', scopes: [] });
      await store.authenticate(key); // statements prepared; first use recorded
      const table = store === personal ? apiKeys : operatorApiKeys;
      const lastUsed = async () => (await database.db.select({ at: table.lastUsedAt }).from(table).where(eq(table.id, row.id)))[0]!.at;
      const first = clock.now();
      expect(await lastUsed()).toEqual(first);

      clock.advance(30_000);
      expect(await updatesDuring(async () => Promise.all([store.authenticate(key), store.authenticate(key), store.authenticate(key)]))).toBe(0);
      expect(await lastUsed()).toEqual(first);

      clock.advance(31_000);
      expect(await updatesDuring(() => store.authenticate(key))).toBe(1);
      expect(await lastUsed()).toEqual(clock.now());
      expect(await updatesDuring(() => store.authenticate(key))).toBe(0);
    }
  });
});
