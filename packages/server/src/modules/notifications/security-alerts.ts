import { randomUUID } from 'node:crypto';
import { isBrandId } from '@portal/contracts';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { claimDueRows } from '../../db/claim-due';
import { securityAlerts, sessions, users } from '../../db/schema';
import { createDrain, installPeriodicJob, type JobLogger } from '../../platform/jobs';
import type { UserRow } from '../users';
import { notificationQueries, type AccountInventory } from './queries';
import type { SecurityEventKind } from './security-copy';
import { notificationRow, securityMail, securityNotification, type NotifierDependencies, type SecurityEventOptions } from './service';

/** How long a kick waits, gathering the alerts of the sign-ins answered meanwhile into one batch. */
const KICK_DELAY_MS = 200;
/** Waits after each failed mail; after the last one the mail is given up (logged; the notification stays). */
export const SECURITY_ALERT_RETRY_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;

/** What a sign-in means for the account's owner: a new device, a cancelled deletion, a linked account. */
export interface SecurityAlert {
  kind: SecurityEventKind;
  detail?: string;
}

type AlertRow = typeof securityAlerts.$inferSelect;

/**
 * The alert's words and its recipient: the address the account had at the sign-in, so an email
 * change made before a retry (by whoever signed in) never takes the owner's alert with it.
 */
const wordsOf = (row: AlertRow): SecurityEventOptions => ({
  brand: isBrandId(row.brand) ? row.brand : 'platform',
  ...(row.detail ? { detail: row.detail } : {}),
  ...(row.mailTo ? { mailTo: row.mailTo } : {}),
});

/**
 * The security alert worker: claims due alerts in one statement (FOR UPDATE SKIP LOCKED, then
 * a lease under a claim id: several nodes take disjoint rows, and a node that dies mid-run
 * leaves its claim to lapse), stores their in-app notifications exactly once (marked notified
 * under the claim in the same transaction), then mails each, keyed by the alert's id, and
 * deletes it. A mail is at least once: only a node dying between SMTP's acceptance and the
 * delete sends it again, with the same Message-ID (the dev outbox stores it once).
 */
export function createSecurityAlertWorker(deps: NotifierDependencies) {
  const { db, clock, log } = deps;
  // Longer than SMTP's timeouts, so a slow mail is not taken over and sent twice.
  const leaseMs = deps.config.SECURITY_ALERT_LEASE_SECONDS * 1000;

  function claim(claimId: string, limit: number): Promise<AlertRow[]> {
    const now = clock.now();
    return claimDueRows(db, securityAlerts, securityAlerts.id, { now, until: new Date(now.getTime() + leaseMs), claimId, limit });
  }

  /** The owner of each claimed alert's session, by session id; a purged account is nobody's to tell. */
  async function ownersOf(rows: AlertRow[]): Promise<Map<string, UserRow>> {
    const found = await db
      .select({ sessionId: sessions.id, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(inArray(sessions.id, [...new Set(rows.map((row) => row.sessionId))]));
    return new Map(found.filter(({ user }) => !user.purgedAt).map(({ sessionId, user }) => [sessionId, user]));
  }

  /** Stores the notifications not stored yet, once: only the rows this claim marks notified get one. */
  async function notify(rows: AlertRow[], owners: Map<string, UserRow>, claimId: string): Promise<void> {
    const pending = rows.filter((row) => !row.notifiedAt);
    if (pending.length === 0) return;
    const now = clock.now();
    await db.transaction(async (tx) => {
      const marked = await tx
        .update(securityAlerts)
        .set({ notifiedAt: now })
        .where(and(inArray(securityAlerts.id, pending.map((row) => row.id)), eq(securityAlerts.claimId, claimId), isNull(securityAlerts.notifiedAt)))
        .returning({ id: securityAlerts.id });
      const ours = new Set(marked.map((row) => row.id));
      const stored = pending.flatMap((row) => {
        const owner = owners.get(row.sessionId);
        return ours.has(row.id) && owner ? [notificationRow(owner.id, securityNotification(owner, row.kind as SecurityEventKind, wordsOf(row)), now)] : [];
      });
      await notificationQueries(tx).insertMany(stored);
    });
  }

  /** Mails one alert and deletes it, or schedules it again (given up after the last wait). */
  async function deliver(row: AlertRow, owner: UserRow | undefined, inventory: AccountInventory | undefined, claimId: string): Promise<'sent' | 'dropped' | 'retried' | 'failed'> {
    const mine = and(eq(securityAlerts.id, row.id), eq(securityAlerts.claimId, claimId));
    if (!owner) {
      await db.delete(securityAlerts).where(mine);
      return 'dropped';
    }
    try {
      const mail = await securityMail(deps, owner, row.kind as SecurityEventKind, wordsOf(row), inventory);
      await deps.mailer.send({ ...mail, key: row.id });
    } catch (error) {
      const attempts = row.attempts + 1;
      const wait = SECURITY_ALERT_RETRY_MS[attempts - 1];
      log.error({ err: error, alert: row.id, attempts }, wait === undefined ? 'security mail not sent; given up' : 'security mail not sent; retried later');
      if (wait === undefined) {
        await db.delete(securityAlerts).where(mine);
        return 'failed';
      }
      const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await db
        .update(securityAlerts)
        .set({ attempts, nextAttemptAt: new Date(clock.now().getTime() + wait), lastError, claimId: null, claimedUntil: null })
        .where(mine);
      return 'retried';
    }
    await db.delete(securityAlerts).where(mine);
    return 'sent';
  }

  /** Delivers what is due now, in batches, until nothing is left this node can claim. */
  async function run(options: { batchSize?: number; maxBatches?: number } = {}) {
    const claimId = randomUUID();
    const counts = { sent: 0, dropped: 0, retried: 0, failed: 0 };
    const batchSize = options.batchSize ?? 50;
    for (let batch = 0; batch < (options.maxBatches ?? 100); batch += 1) {
      const claimed = await claim(claimId, batchSize);
      if (claimed.length === 0) break;
      const owners = await ownersOf(claimed);
      await notify(claimed, owners, claimId);
      const inventories = await notificationQueries(db).inventories([...new Set([...owners.values()].map((owner) => owner.id))]);
      for (const row of claimed) {
        const owner = owners.get(row.sessionId);
        counts[await deliver(row, owner, owner && inventories.get(owner.id), claimId)] += 1;
      }
      // A short batch took all that was due: what a later sign-in queues comes with its own kick.
      if (claimed.length < batchSize) break;
    }
    return counts;
  }

  const drain = createDrain('security-alerts', () => run(), log, KICK_DELAY_MS);
  return {
    run,
    /** Delivers on this node soon after a sign-in committed its alerts (never waits); the mailer's `settled()` waits for it. */
    kick() {
      drain.kick();
      deps.mailer.track?.(drain.idle());
    },
    /** The kicked run in progress, if any (tests and shutdown wait for it). */
    idle: drain.idle,
    stop: drain.stop,
  };
}

export type SecurityAlertWorker = ReturnType<typeof createSecurityAlertWorker>;

/**
 * The worker for the app's lifetime: kicked after each sign-in that queued alerts, and every
 * `intervalSeconds` for what a dead node or a failed SMTP left (0: only kicks on this node).
 */
export function installSecurityAlertJob(app: { log: JobLogger; addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown }, worker: SecurityAlertWorker, intervalSeconds: number): void {
  installPeriodicJob(app, { name: 'security-alerts', intervalMs: intervalSeconds * 1000, run: () => worker.run() });
  app.addHook('onClose', () => worker.stop());
}
