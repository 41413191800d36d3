import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, operatorApiKeys, users } from '../../db/schema';
import { manualClock } from '../../../test/clock';
import { fileDatabase } from '../../../test/db-target';
import { countStatements } from '../../../test/statement-counter';
import { createSessionService } from '../sessions';
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

/** A key well within the limit. */
const made = async (store: ReturnType<typeof bearerKeyStore>, userId: string, input: { name: string; scopes: string[] }) => (await store.create(userId, input, { limit: 50 }))!;
const updatesDuring = async (run: () => Promise<unknown>) => (await countStatements(run, { settleMs: 0 })).texts.filter((text) => /^\s*update/i.test(text)).length;

describe('one bearer key store over two tables', () => {
  it("a personal key never authenticates as an operator key, nor an operator key as a person's", async () => {
    const { key: personalKey } = await made(personal, alice, { name: 'Mine', scopes: ['me:read'] });
    const { key: operatorKey } = await made(operator, alice, { name: 'Console', scopes: ['admin:dashboard'] });
    expect((await personal.authenticate(personalKey))?.user.id).toBe(alice);
    expect((await operator.authenticate(operatorKey))?.user.id).toBe(alice);
    expect(await operator.authenticate(personalKey)).toBeNull();
    expect(await personal.authenticate(operatorKey)).toBeNull();
  });

  it('a revoked key is refused at once; another person can neither revoke it nor list it', async () => {
    const { row, key } = await made(personal, alice, { name: 'Short', scopes: ['me:read'] });
    expect(await personal.revoke(bob, row.id)).toBe(false);
    expect((await personal.liveKeysOf(bob)).map((k) => k.id)).not.toContain(row.id);
    expect(await personal.authenticate(key)).not.toBeNull();
    expect(await personal.revoke(alice, row.id)).toBe(true);
    expect(await personal.authenticate(key)).toBeNull();
    expect(await personal.revoke(alice, row.id)).toBe(false);
  });

  it("revoke all ends only its owner's keys of its own table", async () => {
    const { key: aliceOperator } = await made(operator, alice, { name: 'Alice console', scopes: ['admin:dashboard'] });
    const { key: bobOperator } = await made(operator, bob, { name: 'Bob console', scopes: ['admin:dashboard'] });
    const { key: alicePersonal } = await made(personal, alice, { name: 'Alice personal', scopes: ['me:read'] });
    await operator.revokeAll(alice);
    expect(await operator.authenticate(aliceOperator)).toBeNull();
    expect((await operator.authenticate(bobOperator))?.user.id).toBe(bob);
    expect((await personal.authenticate(alicePersonal))?.user.id).toBe(alice);
    expect(await operator.liveKeysOf(alice)).toEqual([]);
  });

  it('records use at most once a minute, not a write per call, in each table', async () => {
    for (const store of [personal, operator]) {
      const { row, key } = await made(store, bob, { name: 'Busy', scopes: [] });
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

describe('the limit and the session a key is made on, under parallel requests', () => {
  it('never lets parallel creations pass the limit together, in either table', async () => {
    for (const store of [personal, operator]) {
      const owner = randomUUID();
      const now = clock.now();
      await database.db.insert(users).values({ id: owner, email: `limit-${owner}@example.com`, fullName: 'Limit', activatedAt: now, createdAt: now, updatedAt: now });
      // Before, each request counted the keys first and inserted after: all twelve saw fewer than five.
      const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => store.create(owner, { name: `Parallel ${n}`, scopes: [] }, { limit: 5 })));
      expect(answers.filter(Boolean)).toHaveLength(5);
      expect(await store.liveKeysOf(owner)).toHaveLength(5);
      // A revoked key frees its place.
      expect(await store.revoke(owner, answers.find(Boolean)!.row.id)).toBe(true);
      expect(await store.create(owner, { name: 'Freed', scopes: [] }, { limit: 5 })).toBeDefined();
      expect(await store.create(owner, { name: 'One more', scopes: [] }, { limit: 5 })).toBeUndefined();
    }
  });

  it("is refused on a session that ended, or on another person's session", async () => {
    const sessionsOf = createSessionService(database.db, clock);
    const context = { deviceId: 'device', ip: '192.0.2.1' };
    const ended = (await sessionsOf.create(alice, context, ['pwd'])).session;
    await sessionsOf.revoke(alice, ended.id);
    const bobs = (await sessionsOf.create(bob, context, ['pwd'])).session;
    const live = (await sessionsOf.create(alice, context, ['pwd'])).session;
    const refusal = (onSession: string) => personal.create(alice, { name: 'On a session', scopes: [] }, { limit: 50, onSession }).then(() => 'made', (error: { code?: string }) => error.code);
    expect(await refusal(ended.id)).toBe('unauthorized');
    expect(await refusal(bobs.id)).toBe('unauthorized');
    expect(await refusal(live.id)).toBe('made');
  });
});
