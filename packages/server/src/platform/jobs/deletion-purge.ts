import type { Database } from '../../db/client';
import type { Clock } from '../clock';
import { purgeQueries } from './queries';

/**
 * Empties every account whose deletion date has passed: sessions, passkeys, API keys,
 * notifications, the picture, one-time tokens and recovery codes are deleted; the user row
 * keeps only its id and dates (email `deleted-<id>@deleted.invalid`, name 'Deleted user',
 * no password, profile or second factor) and gets `purgedAt`. One transaction per account;
 * safe to run on several nodes at once, and idempotent. Resolves to how many it purged.
 */
export async function runDeletionPurge(db: Database, clock: Clock, options: { maxAccounts?: number } = {}): Promise<number> {
  const queries = purgeQueries(db);
  const max = options.maxAccounts ?? 10_000;
  let purged = 0;
  while (purged < max) {
    const id = await queries.purgeOne(clock.now());
    if (!id) break;
    purged += 1;
  }
  return purged;
}
