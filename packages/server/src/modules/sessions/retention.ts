import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { sessions } from './tables';
import type { Clock } from '../../platform/clock';
import { installPeriodicJob } from '../../platform/jobs';

const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Rows per statement: a short lock and a small transaction each, however much has piled up. */
const BATCH = 1_000;

export interface SessionRetention {
  /** How long a session is kept after it ended; 0 keeps every session. */
  retentionDays: number;
  /** A session unused this long ended then (SESSION_IDLE_TIMEOUT_SECONDS). */
  idleTimeoutSeconds: number;
}

/**
 * Deletes sessions that ended (signed out, expired, or idle past the timeout) more than
 * `retentionDays` ago, with their IP, location and browser, and resolves to how many.
 *
 * The newest session of each device of a person stays, ended or not: every sign-in asks
 * whether the person had sessions before and whether this device was among them (the
 * new-device alert), and those answers must not change because old rows went. So what goes
 * is the history behind each device's last session, never the device itself.
 *
 * Idempotent and safe on several nodes at once; a scan of the table per batch, an hour apart
 * (no index of its own: one more index would cost every sign-in's insert). The deletes reach
 * the other nodes' identity caches through the sessions trigger, once per person per batch.
 */
export async function deleteEndedSessions(db: Database, clock: Clock, retention: SessionRetention, options: { maxRows?: number } = {}): Promise<number> {
  if (retention.retentionDays <= 0) return 0;
  const cutoffMs = clock.now().getTime() - retention.retentionDays * DAY_MS;
  const cutoff = new Date(cutoffMs).toISOString();
  const idleCutoff = new Date(cutoffMs - retention.idleTimeoutSeconds * 1000).toISOString();
  const max = options.maxRows ?? 100_000;
  let deleted = 0;
  while (deleted < max) {
    const rows = await db.execute<{ id: string }>(sql`
      delete from ${sessions} where id in (
        select ended.id from ${sessions} ended
        where (ended.revoked_at < ${cutoff} or ended.expires_at < ${cutoff} or ended.last_active_at < ${idleCutoff})
          and exists (
            select 1 from ${sessions} newer
            where newer.user_id = ended.user_id
              and newer.device_id is not distinct from ended.device_id
              and (newer.created_at, newer.id) > (ended.created_at, ended.id)
          )
        limit ${Math.min(BATCH, max - deleted)}
      ) returning id`);
    deleted += rows.rows.length;
    if (rows.rows.length === 0) break;
  }
  return deleted;
}

/** Every node sweeps hourly (the statement is idempotent, so nodes need not agree who); nothing with SESSION_RETENTION_DAYS=0. */
export function installSessionRetentionJob(app: FastifyInstance, deps: { db: Database; clock: Clock; retention: SessionRetention }): void {
  installPeriodicJob(app, {
    name: 'session-retention',
    intervalMs: deps.retention.retentionDays > 0 ? SWEEP_INTERVAL_MS : 0,
    initialDelayMs: 60_000 + Math.floor(Math.random() * 60_000),
    run: () => deleteEndedSessions(deps.db, deps.clock, deps.retention),
  });
}
