import { z } from 'zod';

/**
 * The operators' dashboard: what happened on the portal, per hour over the last 24 hours or
 * per day over the last 30 days (UTC), oldest bucket first, the current one last (partial).
 */
export const dashboardRanges = ['24h', '30d'] as const;
export type DashboardRange = (typeof dashboardRanges)[number];

/**
 * The figures, each per bucket. `active_sessions` is how many sessions were alive at the end
 * of the bucket (or now, for the current one); the others are counts of events in the bucket.
 */
export const dashboardMetrics = ['sign_ups', 'sign_ins', 'failed_sign_ins', 'lockouts', 'active_sessions', 'token_grants'] as const;
export type DashboardMetric = (typeof dashboardMetrics)[number];

export const dashboardQuerySchema = z.object({ range: z.enum(dashboardRanges).default('24h') });

const count = z.number().int().min(0);

export const dashboardPointSchema = z.object({
  /** Start of the bucket (ISO 8601, UTC). */
  at: z.string(),
  sign_ups: count,
  sign_ins: count,
  failed_sign_ins: count,
  lockouts: count,
  active_sessions: count,
  token_grants: count,
});
export type DashboardPoint = z.infer<typeof dashboardPointSchema>;

export const dashboardSchema = z.object({
  range: z.enum(dashboardRanges),
  bucket: z.enum(['hour', 'day']),
  /** Start of the first bucket and the moment the figures were counted. */
  from: z.string(),
  to: z.string(),
  points: z.array(dashboardPointSchema),
  /** Events over the whole range; `active_sessions` is the count now. */
  totals: dashboardPointSchema.omit({ at: true }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
