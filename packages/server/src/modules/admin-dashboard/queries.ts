import { sql } from 'drizzle-orm';
import type { Dashboard, DashboardPoint, DashboardRange } from '@portal/contracts';
import type { Database } from '../../db/client';
import { dashboardCounters } from './tables';

/** Events that no other table keeps for the dashboard's 30 days, counted per hour. */
export type CountedEvent = 'sign_in' | 'sign_in_failed' | 'lockout' | 'token_grant';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The start of the (UTC) hour `at` falls in: the counters' bucket. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Adds `by` (one by default) to the event's counter of the hour `at` falls in: one upsert, so
 * parallel nodes never lose a count. Committed without waiting for the disk: every sign-in and
 * token grant counts, and a commit that waits holds a pooled connection through a flush of the
 * log (an fdatasync, 1 to 7 ms on a plain disk) that the grant's own commit also queues for. A
 * database crash may lose the last counts of an operators' figure; the next commit that waits
 * flushes them too (the log is flushed in order).
 */
export async function countEvent(db: Database, event: CountedEvent, at: Date, by = 1): Promise<void> {
  const hour = hourOf(at);
  await db
    .insert(dashboardCounters)
    .select(sql`select ${event}, ${hour.toISOString()}::timestamptz, ${by}::bigint where (select set_config('synchronous_commit', 'off', true)) = 'off'`)
    .onConflictDoUpdate({ target: [dashboardCounters.metric, dashboardCounters.hour], set: { count: sql`${dashboardCounters.count} + ${by}` } });
}

const shapes: Record<DashboardRange, { bucket: 'hour' | 'day'; size: number; buckets: number }> = {
  '24h': { bucket: 'hour', size: HOUR_MS, buckets: 24 },
  '30d': { bucket: 'day', size: DAY_MS, buckets: 30 },
};

/** Which counter feeds which figure of the answer. */
const counterFigures: Record<CountedEvent, keyof Omit<DashboardPoint, 'at'>> = {
  sign_in: 'sign_ins',
  sign_in_failed: 'failed_sign_ins',
  lockout: 'lockouts',
  token_grant: 'token_grants',
};

interface BucketCount extends Record<string, unknown> {
  i: number | string;
  n: number | string;
}

/**
 * The figures of `range` ending at `now` (UTC buckets, the current one partial). Sign-ups come
 * from the accounts' creation times, active sessions from the sessions' lifetimes (alive at
 * each bucket's end: created before, not yet expired or signed out, and not idle past
 * `idleTimeoutSeconds` then), the rest from the counters.
 */
export async function dashboardFigures(db: Database, range: DashboardRange, now: Date, idleTimeoutSeconds: number): Promise<Dashboard> {
  const { bucket, size, buckets } = shapes[range];
  const current = Math.floor(now.getTime() / size) * size;
  const from = new Date(current - (buckets - 1) * size);
  const seconds = size / 1000;
  const fromIso = from.toISOString();
  const nowIso = now.toISOString();

  const points: DashboardPoint[] = Array.from({ length: buckets }, (_, i) => ({
    at: new Date(from.getTime() + i * size).toISOString(),
    sign_ups: 0,
    sign_ins: 0,
    failed_sign_ins: 0,
    lockouts: 0,
    active_sessions: 0,
    token_grants: 0,
  }));
  const bucketOf = (value: number | string) => points[Number(value)];

  const [signUps, counters, alive] = await Promise.all([
    db.execute<BucketCount>(sql`
      select floor(extract(epoch from (created_at - ${fromIso}::timestamptz)) / ${seconds})::int as i, count(*)::int as n
      from users
      where created_at >= ${fromIso}::timestamptz and created_at <= ${nowIso}::timestamptz
      group by 1`),
    db.execute<BucketCount & { metric: string }>(sql`
      select metric, floor(extract(epoch from (hour - ${fromIso}::timestamptz)) / ${seconds})::int as i, sum(count)::bigint as n
      from dashboard_counters
      where hour >= ${fromIso}::timestamptz and hour <= ${nowIso}::timestamptz
      group by 1, 2`),
    // Only sessions alive at some moment of the range take part; each bucket's end (now for the
    // current one) is a point in time they either span or not. Idle: a session refuses every use
    // once idle past the timeout, so one last used at L (used after t, or within the timeout
    // before t) was alive at t exactly when L >= t - timeout; one idle then was never used again.
    db.execute<BucketCount>(sql`
      with ends as (
        select i, least(${fromIso}::timestamptz + (i + 1) * make_interval(secs => ${seconds}), ${nowIso}::timestamptz) as t
        from generate_series(0, ${buckets - 1}) as i
      ),
      candidates as (
        select created_at, expires_at, revoked_at, last_active_at from sessions
        where created_at <= ${nowIso}::timestamptz and expires_at > ${fromIso}::timestamptz
          and (revoked_at is null or revoked_at > ${fromIso}::timestamptz)
          and last_active_at >= ${fromIso}::timestamptz - make_interval(secs => ${idleTimeoutSeconds})
      )
      select ends.i, count(candidates.created_at)::int as n
      from ends left join candidates
        on candidates.created_at <= ends.t and candidates.expires_at > ends.t and (candidates.revoked_at is null or candidates.revoked_at > ends.t)
          and candidates.last_active_at >= ends.t - make_interval(secs => ${idleTimeoutSeconds})
      group by ends.i`),
  ]);

  for (const row of signUps.rows) {
    const point = bucketOf(row.i);
    if (point) point.sign_ups = Number(row.n);
  }
  for (const row of counters.rows) {
    const point = bucketOf(row.i);
    const figure = counterFigures[row.metric as CountedEvent];
    if (point && figure) point[figure] += Number(row.n);
  }
  for (const row of alive.rows) {
    const point = bucketOf(row.i);
    if (point) point.active_sessions = Number(row.n);
  }

  const sum = (figure: keyof Omit<DashboardPoint, 'at'>) => points.reduce((total, point) => total + point[figure], 0);
  return {
    range,
    bucket,
    from: fromIso,
    to: nowIso,
    points,
    totals: {
      sign_ups: sum('sign_ups'),
      sign_ins: sum('sign_ins'),
      failed_sign_ins: sum('failed_sign_ins'),
      lockouts: sum('lockouts'),
      token_grants: sum('token_grants'),
      active_sessions: points[points.length - 1]?.active_sessions ?? 0,
    },
  };
}
