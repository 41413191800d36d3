import { randomUUID } from 'node:crypto';
import { asc, eq, isNull, lt, and, isNotNull } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../db/client';
import { oidcKeys } from '../../db/schema';
import type { DataProtection } from '../../platform/data-protection';

/** How long a retired key stays published: longer than any token it signed lives (ID and access tokens: 1 hour). */
export const RETIRED_KEY_GRACE_SECONDS = 24 * 60 * 60;

const ALG = 'RS256';

async function newKey(db: Database, secrets: DataProtection): Promise<void> {
  const { privateKey } = await generateKeyPair(ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = randomUUID();
  await db.insert(oidcKeys).values({ kid, alg: ALG, sealedJwk: secrets.seal(JSON.stringify({ ...jwk, kid, alg: ALG, use: 'sig' })) });
}

/**
 * The provider's signing keys, kept in the database so every node and every restart signs
 * with the same one: generated on first start (two nodes starting at once may both generate
 * one; both are published and the newest signs). Private keys are sealed with the data key.
 * The current key comes first: oidc-provider signs with the first key of an algorithm.
 */
export async function loadSigningKeys(db: Database, secrets: DataProtection): Promise<JWK[]> {
  let rows = await db.select().from(oidcKeys).orderBy(asc(oidcKeys.createdAt));
  if (!rows.some((row) => !row.retiredAt)) {
    await newKey(db, secrets);
    rows = await db.select().from(oidcKeys).orderBy(asc(oidcKeys.createdAt));
  }
  const current = rows.filter((row) => !row.retiredAt).reverse();
  const retired = rows.filter((row) => row.retiredAt);
  return [...current, ...retired].map((row) => JSON.parse(secrets.open(row.sealedJwk)) as JWK);
}

/**
 * Rotation: a new key signs from the next start of each node on; the old ones are retired but
 * stay published until RETIRED_KEY_GRACE_SECONDS have passed (then dropped), so tokens they
 * signed still verify.
 */
export async function rotateSigningKey(db: Database, secrets: DataProtection, now = new Date()): Promise<{ kid: string; retired: number; dropped: number }> {
  const dropped = await db
    .delete(oidcKeys)
    .where(and(isNotNull(oidcKeys.retiredAt), lt(oidcKeys.retiredAt, new Date(now.getTime() - RETIRED_KEY_GRACE_SECONDS * 1000))))
    .returning({ kid: oidcKeys.kid });
  const retired = await db.update(oidcKeys).set({ retiredAt: now }).where(isNull(oidcKeys.retiredAt)).returning({ kid: oidcKeys.kid });
  await newKey(db, secrets);
  const [fresh] = await db.select({ kid: oidcKeys.kid }).from(oidcKeys).where(isNull(oidcKeys.retiredAt)).limit(1);
  return { kid: fresh!.kid, retired: retired.length, dropped: dropped.length };
}

/** Removes one key by id (an operator's emergency: a leaked key). */
export async function dropSigningKey(db: Database, kid: string): Promise<boolean> {
  return (await db.delete(oidcKeys).where(eq(oidcKeys.kid, kid)).returning({ kid: oidcKeys.kid })).length > 0;
}
