import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns';

/** Idempotency keys (platform/idempotency): a scope's key answers its first result again. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull(),
    response: jsonb('response'),
    lockedUntil: tz('locked_until'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('idempotency_keys_scope_key').on(table.scope, table.key)],
);
