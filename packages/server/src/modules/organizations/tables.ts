import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, invitationLifeColumns, updatedAt } from '../../db/columns';
import { users } from '../users/tables';

// Organizations (migration 0004_billing made them, for the business trial), their members,
// invitations and on-premise deployments.

/** Companies (enterprises). An email belongs to at most one. */
export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  adminEmail: text('admin_email').notNull(),
  adminUserId: uuid('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** The organization a row belongs to: gone with the organization (ON DELETE CASCADE). */
export const organizationId = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const organizationMembers = pgTable(
  'organization_members',
  {
    organizationId: organizationId(),
    email: text('email').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** owner, admin or member (migration 0013_organization_invitations). */
    role: text('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('organization_members_email_key').on(table.email),
    index('organization_members_org_idx').on(table.organizationId),
    // Every sign-in finds an account's rows by its id (migration 0041_organization_members_user_idx).
    index('organization_members_user_idx').on(table.userId).where(sql`${table.userId} is not null`),
    check('organization_members_role_check', sql`${table.role} IN ('owner', 'admin', 'member')`),
  ],
);

/**
 * Invitations to join an organization by email (migration 0013_organization_invitations):
 * the mailed token is stored hashed; pending while neither accepted nor revoked, one pending per
 * organization and email, valid until `expires_at`. `signup_claimed_at`: the invited person
 * signed up from the link, so the account joins once activated.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey(),
    organizationId: organizationId(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    ...invitationLifeColumns(),
  },
  (table) => [
    uniqueIndex('organization_invitations_token_key').on(table.tokenHash),
    uniqueIndex('organization_invitations_pending_key').on(table.organizationId, table.email).where(sql`${table.acceptedAt} IS NULL AND ${table.revokedAt} IS NULL`),
    index('organization_invitations_email_idx').on(table.email),
    check('organization_invitations_role_check', sql`${table.role} IN ('owner', 'admin', 'member')`),
  ],
);

/**
 * An organization's on-premise deployment (migration 0009_onpremise): where its own
 * server's API and login page live. Its members are sent there by the prelogin lookup.
 */
export const organizationDeployments = pgTable(
  'organization_deployments',
  {
    organizationId: organizationId().primaryKey(),
    baseApi: text('base_api').notNull(),
    loginUrl: text('login_url').notNull(),
    activated: boolean('activated').notNull().default(true),
    requirePasswordless: boolean('require_passwordless').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [check('organization_deployments_base_api_https', sql`${table.baseApi} LIKE 'https://%'`)],
);
