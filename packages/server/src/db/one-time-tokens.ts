import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { personId } from '../modules/users/tables';

// The table of platform/one-time-tokens. It lives in db/, not beside its code, because its rows
// belong to an account (a foreign key to modules/users' table) and platform imports no module.

/**
 * Single-use secrets mailed to a user: activation links, reset links and codes.
 * Only hashes are stored; `attempts` bounds guessing of short codes.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: personId(),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** What the token confirms, when it is more than the user (a new email address, a pending sign-in). */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('one_time_tokens_hash_key').on(table.purpose, table.tokenHash),
    index('one_time_tokens_user_idx').on(table.userId, table.purpose),
  ],
);
