import { sql } from 'drizzle-orm';
import { boolean, check, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../db/columns';
import { organizationId } from '../organizations/tables';
import { personId } from '../users/tables';

// Company SSO (migration 0016_company_sso): an organization's identity provider
// (OpenID Connect or SAML 2.0), its verified email domains, the identities it asserted and the
// SAML requests in flight.

/**
 * One per organization: its SSO identifier (lower-cased, unique) and its connection. The OIDC
 * client secret is sealed with the data key; SAML keeps what the IdP metadata said.
 */
export const companySsoConnections = pgTable(
  'company_sso_connections',
  {
    organizationId: organizationId().primaryKey(),
    identifier: text('identifier').notNull(),
    kind: text('kind').$type<'oidc' | 'saml'>().notNull(),
    oidcIssuer: text('oidc_issuer'),
    oidcClientId: text('oidc_client_id'),
    oidcClientSecret: text('oidc_client_secret'),
    samlEntityId: text('saml_entity_id'),
    samlSsoUrl: text('saml_sso_url'),
    samlCertificates: jsonb('saml_certificates').$type<string[]>(),
    requireSso: boolean('require_sso').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('company_sso_connections_identifier_key').on(table.identifier),
    check('company_sso_connections_kind', sql`${table.kind} IN ('oidc', 'saml')`),
    check('company_sso_connections_identifier_form', sql`${table.identifier} ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'`),
  ],
);

/** An organization's email domains: claimed with a DNS token, verified by one organization at most. */
export const companySsoDomains = pgTable(
  'company_sso_domains',
  {
    organizationId: organizationId(),
    domain: text('domain').notNull(),
    dnsToken: text('dns_token').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    verifiedBy: text('verified_by'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.domain] }), uniqueIndex('company_sso_domains_verified_key').on(table.domain).where(sql`${table.verifiedAt} IS NOT NULL`)],
);

/** Who an organization's identity provider said signed in (its subject), and the account it is. */
export const companySsoIdentities = pgTable(
  'company_sso_identities',
  {
    organizationId: organizationId(),
    subject: text('subject').notNull(),
    userId: personId(),
    email: text('email').notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.subject] }), uniqueIndex('company_sso_identities_org_user_key').on(table.organizationId, table.userId)],
);

/**
 * A SAML AuthnRequest in flight (its id is the response's InResponseTo, used once), then the
 * one-time handoff code the browser carries from the ACS to /sso/redirect (hashed; minutes).
 */
export const companySsoRequests = pgTable(
  'company_sso_requests',
  {
    id: text('id').primaryKey(),
    organizationId: organizationId(),
    brand: text('brand').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    handoffHash: text('handoff_hash'),
    subject: text('subject'),
    email: text('email'),
    fullName: text('full_name'),
    handoffExpiresAt: timestamp('handoff_expires_at', { withTimezone: true }),
    handoffUsedAt: timestamp('handoff_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('company_sso_requests_handoff_key').on(table.handoffHash)],
);
