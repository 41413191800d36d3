import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from '../../db/columns';
import { sessions } from '../sessions/tables';

/**
 * The OpenID Connect provider's models (oidc-provider's adapter): sessions, interactions, codes,
 * tokens, grants, device codes. One row per model instance; the payload is the provider's own.
 * Columns beside it are what lookups need: the grant a token belongs to (revocation), the user
 * code (device flow), the uid (sessions, interactions), the account (connected apps), the
 * provider session a token came from (ending a portal session ends its tokens).
 */
export const oidcModels = pgTable(
  'oidc_models',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    accountId: text('account_id'),
    clientId: text('client_id'),
    sessionUid: text('session_uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('oidc_models_pkey_idx').on(table.model, table.id),
    // The lookup columns are empty on most rows: their indexes keep only the rows with a value
    // (every lookup asks for one), and the table leaves a fifth of each page free (fillfactor 80,
    // migration 0040) so that marking a row used adds nothing to the indexes.
    index('oidc_models_grant_idx').on(table.grantId).where(sql`${table.grantId} is not null`),
    index('oidc_models_user_code_idx').on(table.userCode).where(sql`${table.userCode} is not null`),
    index('oidc_models_uid_idx').on(table.uid).where(sql`${table.uid} is not null`),
    index('oidc_models_account_idx').on(table.accountId, table.model).where(sql`${table.accountId} is not null`),
    index('oidc_models_session_uid_idx').on(table.sessionUid).where(sql`${table.sessionUid} is not null`),
    index('oidc_models_expires_idx').on(table.expiresAt),
  ],
);

/** Which portal session (sessions.id) a provider session stood on: ending the one ends the other. */
export const oidcSessionLinks = pgTable(
  'oidc_session_links',
  {
    sessionUid: text('session_uid').primaryKey(),
    portalSessionId: uuid('portal_session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [index('oidc_session_links_portal_idx').on(table.portalSessionId)],
);

/**
 * The provider's signing keys: generated once, private key sealed with the data key. A key is
 * published from its creation and signs from `activates_at` (a rotated key reaches every
 * node's JWKS first); the one it replaces is retired then and stays published until the
 * tokens it signed have expired, then is dropped.
 */
export const oidcKeys = pgTable('oidc_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  sealedJwk: text('sealed_jwk').notNull(),
  createdAt: createdAt(),
  activatesAt: timestamp('activates_at', { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});

/**
 * Outside apps (third-party OAuth clients), registered by `npm run clients`. The secret is a
 * 256-bit random value stored only as its SHA-256.
 */
export const oauthClients = pgTable('oauth_clients', {
  clientId: text('client_id').primaryKey(),
  secretHash: text('secret_hash'),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Set by an operator (migration 0030): the provider no longer finds the app, so it signs nobody in and refreshes nothing. */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

/**
 * Outside apps' logos (migration 0011_oauth_client_logos): a 128x128 WebP made from the file
 * the operator gave, served from our own origin (pages load no image from elsewhere).
 */
export const oauthClientLogos = pgTable('oauth_client_logos', {
  clientId: text('client_id')
    .primaryKey()
    .references(() => oauthClients.clientId, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  version: integer('version').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
