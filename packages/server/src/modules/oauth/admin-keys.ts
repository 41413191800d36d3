import type { SigningKey, SigningKeyState } from '@portal/contracts';
import type { Database } from '../../db/client';
import { afterCommit } from '../../db/scoped-transaction';
import { oidcKeys } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import type { DataProtection } from '../../platform/data-protection';
import { AppError } from '../../platform/errors';
import type { ProviderWithKeys } from './current-provider';
import { dropSigningKey, KEY_PUBLISH_AHEAD_SECONDS, publishedKeys, RETIRED_KEY_GRACE_SECONDS, rotateSigningKey, type StoredKey } from './keys';

/**
 * Each key's state at `now`, from the same rule every node publishes by (keys.ts): the
 * signers first, then keys published ahead, retiring ones, and ones no longer published.
 */
export function signingKeyStates(rows: readonly StoredKey[], now: Date): Array<StoredKey & { state: SigningKeyState; publishedUntil: Date | null }> {
  const published = publishedKeys(rows, now);
  const algs = new Set<string>();
  const signers = new Set(published.filter((row) => !algs.has(row.alg) && algs.add(row.alg)).map((row) => row.kid));
  const graceEnd = (row: StoredKey) => (row.retiredAt ? new Date(row.retiredAt.getTime() + RETIRED_KEY_GRACE_SECONDS * 1000) : null);
  const stateOf = (row: StoredKey): SigningKeyState => {
    if (signers.has(row.kid)) return 'signing';
    if (!published.includes(row)) return 'expired';
    return row.retiredAt && row.retiredAt <= now ? 'retiring' : 'published';
  };
  const order: SigningKeyState[] = ['signing', 'published', 'retiring', 'expired'];
  return rows
    .map((row) => ({ ...row, state: stateOf(row), publishedUntil: graceEnd(row) }))
    .sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state) || a.alg.localeCompare(b.alg) || b.activatesAt.getTime() - a.activatesAt.getTime());
}

/**
 * The signing keys in the operators' console. A rotation or a drop is read by this node once
 * it commits with its audit row, before the answer (afterCommit), and by every other node as soon as the database announces it (change-feed.ts; at its
 * next key reload, OIDC_KEYS_RELOAD_SECONDS, at the latest), as the command-line tool's are.
 * Private keys never leave keys.ts.
 */
export function createAdminKeys(deps: { db: Database; secrets: DataProtection; clock: Clock; provider: ProviderWithKeys; reloadSeconds: number }) {
  // The public columns only: the sealed private key is never read here.
  const rows = () =>
    deps.db.select({ kid: oidcKeys.kid, alg: oidcKeys.alg, createdAt: oidcKeys.createdAt, activatesAt: oidcKeys.activatesAt, retiredAt: oidcKeys.retiredAt }).from(oidcKeys);

  return {
    reloadSeconds: deps.reloadSeconds,
    publishAheadSeconds: KEY_PUBLISH_AHEAD_SECONDS,

    async list(): Promise<SigningKey[]> {
      return signingKeyStates(await rows(), deps.clock.now()).map((key) => ({
        kid: key.kid,
        alg: key.alg,
        state: key.state,
        created_at: key.createdAt.toISOString(),
        activates_at: key.activatesAt.toISOString(),
        retired_at: key.retiredAt?.toISOString() ?? null,
        published_until: key.publishedUntil?.toISOString() ?? null,
      }));
    },

    async rotate(immediately: boolean) {
      const rotated = await rotateSigningKey(deps.db, deps.secrets, { now: deps.clock.now(), immediately });
      await afterCommit(() => deps.provider.reload());
      return { kids: rotated.kids, activates_at: rotated.activatesAt.toISOString(), retired: rotated.retired, dropped: rotated.dropped };
    },

    /** A key that signs now is refused: rotating now first makes another one sign, and no node is left to make its own. */
    async drop(kid: string): Promise<void> {
      const key = signingKeyStates(await rows(), deps.clock.now()).find((row) => row.kid === kid);
      if (!key) throw new AppError('admin.not_found');
      if (key.state === 'signing') throw new AppError('admin.key_signing');
      if (!(await dropSigningKey(deps.db, kid))) throw new AppError('admin.not_found');
      await afterCommit(() => deps.provider.reload());
    },
  };
}
export type AdminKeys = ReturnType<typeof createAdminKeys>;
