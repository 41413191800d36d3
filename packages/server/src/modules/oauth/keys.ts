import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, notInArray } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../db/client';
import { oidcKeys } from '../../db/schema';
import type { DataProtection } from '../../platform/data-protection';

/** How long a retired key stays published: longer than any token it signed lives (ID and access tokens: 1 hour). */
export const RETIRED_KEY_GRACE_SECONDS = 24 * 60 * 60;

/**
 * How long after a rotation the new keys start signing. Until then they are only published:
 * every node reads its keys again at least every 2 minutes (OIDC_KEYS_RELOAD_SECONDS), so all
 * of them list the new keys in their JWKS before any signs with them, and a product that
 * fetched the JWKS from any node can verify its tokens.
 */
export const KEY_PUBLISH_AHEAD_SECONDS = 5 * 60;

/**
 * The algorithms the provider signs with, one current key each: RS256, OpenID Connect's
 * default that every library verifies (outside apps' ID tokens), and ES256 (P-256) for the
 * family's own products, whose signature costs a tenth of RS256's (26 against 268 µs here),
 * and a refresh or code grant signs an ID token every time.
 */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** A row of the keys table, as choosing the published keys needs it. */
export interface StoredKey {
  kid: string;
  alg: string;
  createdAt: Date;
  activatesAt: Date;
  retiredAt: Date | null;
}

const newestFirst = (a: StoredKey, b: StoredKey) => b.activatesAt.getTime() - a.activatesAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime();

/**
 * The keys published at `now`: each algorithm's signing key first, in SIGNING_ALGS' order
 * (oidc-provider signs with the first key of an algorithm), then the others. Per algorithm,
 * the newest key already active signs (if none is yet, the earliest one due); keys not yet
 * active are published ahead, retired ones until RETIRED_KEY_GRACE_SECONDS after their
 * retirement. Every node computes the same answer from the same rows.
 */
export function publishedKeys<K extends StoredKey>(rows: readonly K[], now: Date): K[] {
  const at = now.getTime();
  const graceEnds = (row: StoredKey) => (row.retiredAt ? row.retiredAt.getTime() + RETIRED_KEY_GRACE_SECONDS * 1000 : Infinity);
  const algOrder = (row: StoredKey) => (SIGNING_ALGS as readonly string[]).indexOf(row.alg);
  const published = rows.filter((row) => graceEnds(row) > at).sort((a, b) => algOrder(a) - algOrder(b) || newestFirst(a, b));
  const signers = [...new Set(published.map((row) => row.alg))].map((alg) => {
    const ofAlg = published.filter((row) => row.alg === alg);
    return ofAlg.find((row) => row.activatesAt.getTime() <= at) ?? ofAlg.at(-1)!;
  });
  return [...signers, ...published.filter((row) => !signers.includes(row))];
}

async function newKey(db: Database, secrets: DataProtection, alg: SigningAlg, activatesAt: Date): Promise<string> {
  const { privateKey } = await generateKeyPair(alg, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = randomUUID();
  await db.insert(oidcKeys).values({ kid, alg, activatesAt, sealedJwk: secrets.seal(JSON.stringify({ ...jwk, kid, alg, use: 'sig' })) });
  return kid;
}

/** The algorithms without a current key (none yet, or every one retired or dropped). */
const missingAlgs = (rows: readonly StoredKey[]) => SIGNING_ALGS.filter((alg) => !rows.some((row) => row.alg === alg && !row.retiredAt));

/**
 * The provider's signing keys at `now`, kept in the database so every node and every restart
 * signs with the same ones: one per algorithm, generated on first start (two nodes starting at
 * once may both generate one; both are published and the newer signs). Private keys are sealed with the data
 * key and opened only here.
 */
export async function loadSigningKeys(db: Database, secrets: DataProtection, now = new Date()): Promise<JWK[]> {
  let rows = await db.select().from(oidcKeys);
  const missing = missingAlgs(rows);
  if (missing.length > 0) {
    for (const alg of missing) await newKey(db, secrets, alg, now);
    rows = await db.select().from(oidcKeys);
  }
  return publishedKeys(rows, now).map((row) => JSON.parse(secrets.open(row.sealedJwk)) as JWK);
}

/**
 * Rotation: a new key for each algorithm, published at once and signing
 * KEY_PUBLISH_AHEAD_SECONDS later (at `now` with `immediately`, for a key that leaked: each
 * node then signs with it from its next reload). The current keys retire when the new ones
 * start signing and stay published for RETIRED_KEY_GRACE_SECONDS more, so tokens they signed
 * still verify; keys retired longer ago than that are dropped.
 */
export async function rotateSigningKey(
  db: Database,
  secrets: DataProtection,
  options: { now?: Date; immediately?: boolean } = {},
): Promise<{ kids: string[]; activatesAt: Date; retired: number; dropped: number }> {
  const now = options.now ?? new Date();
  const activatesAt = options.immediately ? now : new Date(now.getTime() + KEY_PUBLISH_AHEAD_SECONDS * 1000);
  const dropped = await db
    .delete(oidcKeys)
    .where(and(isNotNull(oidcKeys.retiredAt), lt(oidcKeys.retiredAt, new Date(now.getTime() - RETIRED_KEY_GRACE_SECONDS * 1000))))
    .returning({ kid: oidcKeys.kid });
  // The new keys first: a node reloading in between must never find no current key (it would make one of its own).
  const kids: string[] = [];
  for (const alg of SIGNING_ALGS) kids.push(await newKey(db, secrets, alg, activatesAt));
  const retired = await db
    .update(oidcKeys)
    .set({ retiredAt: activatesAt })
    .where(and(isNull(oidcKeys.retiredAt), notInArray(oidcKeys.kid, kids)))
    .returning({ kid: oidcKeys.kid });
  return { kids, activatesAt, retired: retired.length, dropped: dropped.length };
}

/** Removes one key by id (an operator's emergency: a leaked key). */
export async function dropSigningKey(db: Database, kid: string): Promise<boolean> {
  return (await db.delete(oidcKeys).where(eq(oidcKeys.kid, kid)).returning({ kid: oidcKeys.kid })).length > 0;
}
