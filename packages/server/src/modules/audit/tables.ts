import { bigserial, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tz } from '../../db/columns';

/**
 * The organization audit log (migration 0014_organization_audit): append-only (a
 * trigger refuses UPDATE, DELETE and TRUNCATE); no foreign keys, so it outlives what it names.
 */
export const organizationAuditEvents = pgTable(
  'organization_audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id').notNull(),
    occurredAt: tz('occurred_at').notNull().defaultNow(),
    action: text('action').notNull(),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    targetUserId: uuid('target_user_id'),
    targetEmail: text('target_email'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
  },
  (table) => [index('organization_audit_events_org_idx').on(table.organizationId, table.occurredAt.desc(), table.id.desc())],
);
