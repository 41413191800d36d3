import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { installPeriodicJob } from '../../platform/jobs';
import { purgeQueries } from './purge-queries';
import { expireAccountingRecords } from './purge-retention';

/**
 * Empties every account whose deletion date has passed, as db/personal-columns/ lists it:
 * its sessions, keys, identities, cards, memberships and the like are deleted; organizations,
 * their audit log and the ledger keep their rows without the person's address, IP, browser or
 * notes; the user row keeps only its id and dates (email `deleted-<id>@deleted.invalid`, name
 * 'Deleted user', no password, profile or second factor) and gets `purgedAt`. Invoices and
 * money movements keep their billing name and address or counterparty until accounting law
 * lets them go, then this clears them too. One transaction per account; safe to run on several nodes at once, and idempotent.
 * Resolves to how many accounts it purged.
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
  await expireAccountingRecords(db, clock.now());
  return purged;
}

/**
 * The scheduled purge of accounts past their deletion date: started when the app is ready,
 * every DELETION_JOB_INTERVAL_SECONDS (0: not on this node), stopped when it closes. The first
 * run comes within a minute of start (jittered, so nodes started together spread out).
 */
export function installDeletionPurgeJob(app: FastifyInstance, deps: { config: Config; db: Database; clock: Clock }): void {
  const intervalMs = deps.config.DELETION_JOB_INTERVAL_SECONDS * 1000;
  installPeriodicJob(app, {
    name: 'deletion-purge',
    intervalMs,
    initialDelayMs: Math.min(intervalMs, 30_000 + Math.floor(Math.random() * 30_000)),
    run: () => runDeletionPurge(deps.db, deps.clock),
  });
}
