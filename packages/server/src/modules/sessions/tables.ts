import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { personId } from '../users/tables';

/** One row per signed-in browser or app; the token itself is never stored, only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: personId(),
    tokenHash: text('token_hash').notNull(),
    deviceId: text('device_id'),
    browser: text('browser'),
    device: text('device'),
    ip: text('ip'),
    location: text('location'),
    createdAt: createdAt(),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** How the person authenticated for this session (RFC 8176 values), for the OIDC provider's `amr`. */
    amr: text('amr').array(),
  },
  // By user and device: a sign-in's "seen this device before?" is one probe however long the
  // person's history (migration 0022); lookups by user alone use its first column.
  (table) => [uniqueIndex('sessions_token_hash_key').on(table.tokenHash), index('sessions_user_device_idx').on(table.userId, table.deviceId)],
);

/**
 * When a session last proved a factor again (password, second step) for a sensitive change:
 * re-authentication. A session without a row proved one when it was created (its sign-in).
 */
export const sessionProofs = pgTable('session_proofs', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  provedAt: timestamp('proved_at', { withTimezone: true }).notNull(),
  /** When the second step (a code, a recovery code or a passkey) was last proved again; null: never since sign-in. */
  secondStepAt: timestamp('second_step_at', { withTimezone: true }),
});
