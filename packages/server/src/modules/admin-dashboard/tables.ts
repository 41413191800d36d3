import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The operators' dashboard figures that no other table keeps for 30 days (sign-ins, failed
 * sign-ins, lockouts, token grants): one row per metric and hour, raised by one atomic upsert.
 */
export const dashboardCounters = pgTable(
  'dashboard_counters',
  {
    metric: text('metric').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.metric, table.hour] })],
);
