import { bigserial, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bearerKeyColumns } from '../api-keys/tables';
import { personId } from '../users/tables';

// Operators (migration 0028_operators): roles on accounts, their admin-scoped API keys and the
// operator audit log (append-only: a trigger refuses changes but the purge's anonymisation).

/** One row per account and operator role (`owner`, `support`, `finance`). */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: personId(),
    role: text('role').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'operator_roles_pkey', columns: [table.userId, table.role] })],
);

/** An operator's API key: the personal keys' format, stored only as SHA-256, limited to admin scopes. */
export const operatorApiKeys = pgTable(
  'operator_api_keys',
  bearerKeyColumns(),
  (table) => [uniqueIndex('operator_api_keys_hash_key').on(table.keyHash), index('operator_api_keys_user_idx').on(table.userId)],
);

/** Every successful changing admin call: who (and through which key), what, to which target, why, when, from where. */
export const operatorAuditEvents = pgTable(
  'operator_audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    via: text('via').notNull(),
    action: text('action').notNull(),
    summary: text('summary').notNull(),
    target: jsonb('target').$type<Record<string, string>>().notNull().default({}),
    reason: text('reason').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (table) => [index('operator_audit_events_actor_idx').on(table.actorUserId, table.id.desc())],
);
