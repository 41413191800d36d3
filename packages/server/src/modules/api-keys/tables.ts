import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns';
import { personId } from '../users/tables';

/** A bearer key's columns, the same for a person's API keys and an operator's admin keys (one key store serves both). */
export function bearerKeyColumns() {
  return {
    id: uuid('id').primaryKey(),
    userId: personId(),
    name: text('name').notNull(),
    /** The first characters of the key, shown in lists so people can tell keys apart. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  };
}

/** API keys: bearer credentials limited to scopes, stored only as SHA-256. */
export const apiKeys = pgTable(
  'api_keys',
  {
    ...bearerKeyColumns(),
    /**
     * When the IdP signed in the session the key was made on (null: not an SSO session). Requiring
     * SSO keeps the key only when this came after the person joined, as it keeps that session.
     */
    ssoSignedInAt: timestamp('sso_signed_in_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('api_keys_hash_key').on(table.keyHash), index('api_keys_user_idx').on(table.userId)],
);
