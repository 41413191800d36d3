import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, customType, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** People. Emails are stored lower-cased; a null password means a passkey-only account. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username'),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash'),
    language: text('language').notNull().default('en'),
    customerLanguage: text('customer_language').notNull().default('en'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    // Profile (account self-service).
    phone: text('phone'),
    company: text('company'),
    organization: text('organization'),
    address: text('address'),
    country: text('country'),
    avatarVersion: integer('avatar_version').notNull().default(0),
    recoveryEmail: text('recovery_email'),
    recoveryEmailVerifiedAt: timestamp('recovery_email_verified_at', { withTimezone: true }),
    educationEmail: text('education_email'),
    educationEmailVerifiedAt: timestamp('education_email_verified_at', { withTimezone: true }),
    marketingEmails: boolean('marketing_emails').notNull().default(false),
    usageData: boolean('usage_data').notNull().default(true),
    // Second factor: null, 'totp' or 'email'. The TOTP secret is needed in clear to compute codes.
    twoFactorMethod: text('two_factor_method'),
    totpSecret: text('totp_secret'),
    /** The last accepted TOTP time step: a code is accepted once, even within its own step. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    // Deletion: requested, cancellable until due; the purge job empties personal data after.
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true }),
    deletionDueAt: timestamp('deletion_due_at', { withTimezone: true }),
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /** Locked by an operator: no sign-in, and every session, key and token refused, until unlocked. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    uniqueIndex('users_username_key').on(sql`lower(${table.username})`),
    // The operators' dashboard counts sign-ups by hour and day (migration 0033).
    index('users_created_at_idx').on(table.createdAt),
  ],
);

/** One row per signed-in browser or app; the token itself is never stored, only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
 * Single-use secrets mailed to a user: activation links, reset links and codes.
 * Only hashes are stored; `attempts` bounds guessing of short codes.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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

/** The dev outbox: mail kept instead of sent when no SMTP_URL is configured. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  sent: boolean('sent').notNull().default(false),
  createdAt: createdAt(),
  /** Sending order: created_at ties within a millisecond on PGlite (0019_mail_outbox_order). */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
});

/** Single-use recovery codes for two-step verification, stored as hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('recovery_codes_user_idx').on(table.userId)],
);

/** WebAuthn credentials (passkeys). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url credential id, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    publicKey: bytea('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type'),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('passkeys_credential_key').on(table.credentialId), index('passkeys_user_idx').on(table.userId)],
);

/**
 * WebAuthn challenges: single use, short-lived, stored as hashes. A user id is absent for
 * sign-in by autofill and for sign-up with a passkey (whose pending name and email ride in payload).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: uuid('id').primaryKey(),
    challengeHash: text('challenge_hash').notNull(),
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('webauthn_challenges_hash_key').on(table.challengeHash)],
);

/** Profile pictures, resized on upload and kept in the database so every node serves them. */
export const avatars = pgTable('avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  contentType: text('content_type').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** API keys: bearer credentials limited to scopes, stored only as SHA-256. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the key, shown in lists so people can tell keys apart. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('api_keys_hash_key').on(table.keyHash), index('api_keys_user_idx').on(table.userId)],
);

/** In-app notifications (the spec's entities): type, metadata and whether the user owns the target. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    target: text('target').notNull().default('other'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('notifications_user_idx').on(table.userId, table.createdAt)],
);

/**
 * Security alerts of sign-ins still to deliver (a notification and a mail): written in the
 * transaction of the session they are about (a crash cannot keep one without the other),
 * claimed by a worker on any node with a lease, retried with backoff, deleted once delivered.
 * `notifiedAt`: the in-app notification is stored (in the same transaction that sets it).
 */
export const securityAlerts = pgTable(
  'security_alerts',
  {
    id: uuid('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    brand: text('brand').notNull(),
    detail: text('detail'),
    /** The account's address when the sign-in was made: the alert goes there, whatever the address became since. */
    mailTo: text('mail_to'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    claimId: uuid('claim_id'),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [index('security_alerts_due_idx').on(table.nextAttemptAt), index('security_alerts_session_idx').on(table.sessionId)],
);

// --- security -------------------------------------------------------------------

/**
 * When a session last proved a factor again (password, second step) for a sensitive change:
 * re-authentication. A session without a row proved one when it was created (its sign-in).
 */
export const sessionProofs = pgTable('session_proofs', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  provedAt: timestamp('proved_at', { withTimezone: true }).notNull(),
});

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
    index('oidc_models_grant_idx').on(table.grantId),
    index('oidc_models_user_code_idx').on(table.userCode),
    index('oidc_models_uid_idx').on(table.uid),
    index('oidc_models_account_idx').on(table.accountId, table.model),
    index('oidc_models_session_uid_idx').on(table.sessionUid),
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

// ---------------------------------------------------------------------------------------------
// Billing (migration 0004_billing): organizations (minimal, for the business trial),
// processor customers, cards, subscriptions, trials, orders, promo codes, licenses, idempotency
// keys, the sandbox processor's tokens and charges, Stripe's seen events.

const tz = (name: string) => timestamp(name, { withTimezone: true });
const money = (name: string) => bigint(name, { mode: 'number' });

/** Companies (enterprises). An email belongs to at most one. */
export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  adminEmail: text('admin_email').notNull(),
  adminUserId: uuid('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const organizationMembers = pgTable(
  'organization_members',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** owner, admin or member (migration 0013_organization_invitations). */
    role: text('role').notNull().default('member'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('organization_members_email_key').on(table.email),
    index('organization_members_org_idx').on(table.organizationId),
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
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    signupClaimedAt: timestamp('signup_claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
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
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    baseApi: text('base_api').notNull(),
    loginUrl: text('login_url').notNull(),
    activated: boolean('activated').notNull().default(true),
    requirePasswordless: boolean('require_passwordless').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('organization_deployments_base_api_https', sql`${table.baseApi} LIKE 'https://%'`)],
);

/** The processor's customer of a user (Stripe's cus_...; the sandbox has none). */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    customerRef: text('customer_ref').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('billing_customers_user_processor_key').on(table.userId, table.processor)],
);

/** Saved cards: only what the processor tells (brand, last four, expiry) and the billing address. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processor: text('processor').notNull(),
    processorRef: text('processor_ref').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    cardholder: text('cardholder').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    country: text('country'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    removedAt: tz('removed_at'),
  },
  (table) => [
    index('payment_methods_user_idx').on(table.userId, table.createdAt),
    uniqueIndex('payment_methods_one_default').on(table.userId).where(sql`${table.isDefault} and ${table.removedAt} is null`),
  ],
);

/**
 * Subscriptions: trialing, active, past_due, canceled. `nextAttemptAt` is when the renewal job
 * acts next (period end, a retry); `claimedUntil`/`claimId` are its row claim.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    product: text('product').notNull(),
    plan: text('plan').notNull(),
    months: integer('months').notNull(),
    seats: integer('seats').notNull().default(1),
    currency: text('currency').notNull(),
    price: money('price').notNull(),
    status: text('status').notNull(),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    trialEndsAt: tz('trial_ends_at'),
    currentPeriodStart: tz('current_period_start').notNull(),
    currentPeriodEnd: tz('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: tz('canceled_at'),
    lifetime: boolean('lifetime').notNull().default(false),
    retryCount: integer('retry_count').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at'),
    claimedUntil: tz('claimed_until'),
    claimId: text('claim_id'),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_one_live_per_product').on(table.userId, table.product).where(sql`${table.status} <> 'canceled' and ${table.userId} is not null`),
    index('subscriptions_due_idx').on(table.nextAttemptAt).where(sql`${table.status} <> 'canceled'`),
    index('subscriptions_org_idx').on(table.organizationId),
  ],
);

/** A trial is had once per person (user id, or `email:<address>` for a business admin) and product. */
export const trialUsages = pgTable(
  'trial_usages',
  { person: text('person').notNull(), product: text('product').notNull(), createdAt: createdAt() },
  (table) => [uniqueIndex('trial_usages_person_product_key').on(table.person, table.product)],
);

/**
 * One subscription start at a time per person and product (migration 0024): claimed with a lease
 * before the charge; `generation` names the start's charge and moves on when a start finishes.
 */
export const subscriptionStarts = pgTable(
  'subscription_starts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    product: text('product').notNull(),
    generation: integer('generation').notNull().default(0),
    claimedUntil: tz('claimed_until'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.product] })],
);

/** Every charge (the spec's order fields), paid through its idempotency key. */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    number: text('number').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    product: text('product').notNull(),
    plan: text('plan').notNull(),
    months: integer('months').notNull(),
    seats: integer('seats').notNull().default(1),
    currency: text('currency').notNull(),
    price: money('price').notNull(),
    discount: money('discount').notNull(),
    subtotal: money('subtotal').notNull(),
    credit: money('credit').notNull(),
    total: money('total').notNull(),
    status: text('status').notNull(),
    kind: text('kind').notNull(),
    promoCode: text('promo_code'),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    paymentMethodLabel: text('payment_method_label'),
    billingAddress: jsonb('billing_address').$type<{ cardholder: string; city: string; state: string; zip: string; country: string | null }>(),
    idempotencyKey: text('idempotency_key').notNull(),
    processorRef: text('processor_ref'),
    failureCode: text('failure_code'),
    language: text('language').notNull().default('en'),
    periodStart: tz('period_start'),
    periodEnd: tz('period_end'),
    paidAt: tz('paid_at'),
    /** A paid order given back (the processor's refund); the ledger holds the reverse entry. */
    refundedAt: tz('refunded_at'),
    refundRef: text('refund_ref'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('orders_idempotency_key').on(table.idempotencyKey),
    uniqueIndex('orders_number_key').on(table.number),
    index('orders_user_idx').on(table.userId, table.createdAt),
    index('orders_processor_ref_idx').on(table.processorRef),
  ],
);

/**
 * Receipt mails still to send: one row per paid order, written in the order's own transaction
 * (a crash cannot lose it), claimed by a worker on any node with a lease, retried with backoff.
 */
export const billingReceipts = pgTable(
  'billing_receipts',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: tz('next_attempt_at').notNull(),
    claimedUntil: tz('claimed_until'),
    claimId: uuid('claim_id'),
    lastError: text('last_error'),
    sentAt: tz('sent_at'),
    createdAt: createdAt(),
  },
  (table) => [index('billing_receipts_due_idx').on(table.nextAttemptAt).where(sql`status = 'pending'`)],
);

/** Promo codes: percent (basis points) or a fixed amount in one currency, per plan, expiring, limited. */
export const promoCodes = pgTable('promo_codes', {
  code: text('code').primaryKey(),
  kind: text('kind').notNull(),
  basisPoints: integer('basis_points'),
  amount: money('amount'),
  currency: text('currency'),
  plans: jsonb('plans').$type<string[]>().notNull().default([]),
  expiresAt: tz('expires_at'),
  maxRedemptions: integer('max_redemptions'),
  redemptions: integer('redemptions').notNull().default(0),
  createdAt: createdAt(),
});

export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    code: text('code')
      .notNull()
      .references(() => promoCodes.code, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    orderId: uuid('order_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('promo_redemptions_code_user_key').on(table.code, table.userId)],
);

/** Redeemed AppSumo license codes (by hash): a code grants its plan once. */
export const licenseRedemptions = pgTable('license_redemptions', {
  codeHash: text('code_hash').primaryKey(),
  plan: text('plan').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  subscriptionId: uuid('subscription_id'),
  createdAt: createdAt(),
  /** Revoked by an operator before anyone redeemed it (then no user and no subscription). */
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

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

/** The sandbox processor's card tokens: brand, last four, expiry and the test behaviour, never the number. */
export const sandboxCards = pgTable('sandbox_cards', {
  token: text('token').primaryKey(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  behavior: text('behavior').notNull(),
  createdAt: createdAt(),
});

/** The sandbox processor's charges, one per idempotency key (as Stripe's payment intents). */
export const sandboxCharges = pgTable(
  'sandbox_charges',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    token: text('token').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    declineCode: text('decline_code'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('sandbox_charges_idempotency_key').on(table.idempotencyKey)],
);

/** Stripe events already handled: a replayed event is refused. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

// ---- wallet (modules/wallet): the double-entry ledger ----

/** A person's balance in one currency, or one of the system's (where money enters and leaves). */
export const walletAccounts = pgTable('wallet_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
  systemName: text('system_name'),
  currency: text('currency').notNull(),
  balance: money('balance').notNull().default(0),
  createdAt: createdAt(),
});

/** One movement of money; its postings sum to zero per currency (a trigger checks at commit). */
export const walletEntries = pgTable('wallet_entries', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  initiatedBy: uuid('initiated_by'),
  idempotencyKey: text('idempotency_key'),
  requestDigest: text('request_digest'),
  destination: text('destination'),
  note: text('note'),
  createdAt: createdAt(),
});

/** The lines of an entry: append-only, each with the account's balance after it. */
export const walletPostings = pgTable('wallet_postings', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  entryId: uuid('entry_id').notNull(),
  accountId: uuid('account_id').notNull(),
  currency: text('currency').notNull(),
  amount: money('amount').notNull(),
  balanceAfter: money('balance_after').notNull(),
  createdAt: createdAt(),
});

/** What a person sent per currency and day, for the daily limit. */
export const walletDailyUsage = pgTable('wallet_daily_usage', {
  userId: uuid('user_id').notNull(),
  currency: text('currency').notNull(),
  day: text('day').notNull(),
  sent: money('sent').notNull().default(0),
});

/** A VND deposit by bank transfer: paid once, when the bank's notification matches its reference and amount. */
export const walletDepositOrders = pgTable('wallet_deposit_orders', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  currency: text('currency').notNull().default('VND'),
  amountMinor: money('amount_minor').notNull(),
  reference: text('reference').notNull(),
  status: text('status').notNull().default('pending'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  bankTransactionId: text('bank_transaction_id'),
  entryId: uuid('entry_id'),
});

/** A WHC withdrawal to a BEP20 address: pending until its token transfer is confirmed (completed) or reverted (failed, refunded). */
export const walletChainWithdrawals = pgTable('wallet_chain_withdrawals', {
  id: uuid('id').primaryKey().defaultRandom(),
  entryId: uuid('entry_id').notNull(),
  userId: uuid('user_id').notNull(),
  address: text('address').notNull(),
  amountMinor: money('amount_minor').notNull(),
  txHash: text('tx_hash'),
  rawTx: text('raw_tx'),
  signer: text('signer'),
  nonce: bigint('nonce', { mode: 'number' }),
  status: text('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  refundEntryId: uuid('refund_entry_id'),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  /** Hashes of earlier signings of the same nonce (a resend with a higher gas price). */
  replacedTxHashes: text('replaced_tx_hashes').array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A transfer to a partner exchange wallet: pending until the partner's signed callback says completed, or rejected (refunded). */
export const walletPartnerTransfers = pgTable('wallet_partner_transfers', {
  id: uuid('id').primaryKey().defaultRandom(),
  entryId: uuid('entry_id').notNull(),
  userId: uuid('user_id').notNull(),
  currency: text('currency').notNull(),
  recipient: text('recipient').notNull(),
  amountMinor: money('amount_minor').notNull(),
  note: text('note'),
  status: text('status').notNull().default('pending'),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  partnerReference: text('partner_reference'),
  reason: text('reason'),
  refundEntryId: uuid('refund_entry_id'),
  allowanceDay: text('allowance_day').notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The BEP20 addresses a person has sent WHC to: a first transfer to another needs the password too. */
export const walletKnownAddresses = pgTable(
  'wallet_known_addresses',
  {
    userId: uuid('user_id').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.address] })],
);

/** A person's WHC deposit address: the child `address_index` of WHC_DEPOSIT_XPUB (one per person, indexes never reused). */
export const walletWhcDepositAddresses = pgTable(
  'wallet_whc_deposit_addresses',
  {
    userId: uuid('user_id').primaryKey(),
    addressIndex: integer('address_index').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('wallet_whc_deposit_addresses_index_key').on(table.addressIndex), uniqueIndex('wallet_whc_deposit_addresses_address_key').on(table.address)],
);

/** A chain follower's place: the next block to scan and the head seen at the last scan. */
export const walletChainCursors = pgTable('wallet_chain_cursors', {
  name: text('name').primaryKey(),
  nextBlock: bigint('next_block', { mode: 'number' }).notNull(),
  headBlock: bigint('head_block', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An incoming WHC token transfer to a deposit address: pending, completed (credited once) or ignored. */
export const walletWhcDeposits = pgTable(
  'wallet_whc_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    userId: uuid('user_id').notNull(),
    address: text('address').notNull(),
    fromAddress: text('from_address').notNull(),
    amountToken: numeric('amount_token', { precision: 78, scale: 0 }).notNull(),
    amountMinor: money('amount_minor').notNull(),
    status: text('status').notNull().default('pending'),
    entryId: uuid('entry_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('wallet_whc_deposits_log_key').on(table.txHash, table.logIndex), index('wallet_whc_deposits_user').on(table.userId, table.createdAt)],
);

// ---- wallet payouts (modules/wallet/payouts.ts): researchers' rewards, paid on the 10th ----

/** A reward a product posted for a researcher: approved until paid (in a payout) or canceled by the product. */
export const walletRewards = pgTable('wallet_rewards', {
  id: uuid('id').primaryKey().defaultRandom(),
  clientId: text('client_id').notNull(),
  externalId: text('external_id').notNull(),
  requestDigest: text('request_digest').notNull(),
  userId: uuid('user_id').notNull(),
  programAlias: text('program_alias').notNull(),
  currency: text('currency').notNull(),
  amountMinor: money('amount_minor').notNull(),
  status: text('status').notNull().default('approved'),
  payoutId: uuid('payout_id'),
  createdAt: createdAt(),
  canceledAt: timestamp('canceled_at', { withTimezone: true }),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  /** Held by an operator: the monthly run skips it until an operator approves the payout. */
  heldAt: timestamp('held_at', { withTimezone: true }),
});

/** One payout: a researcher's approved rewards of one currency, paid by one ledger entry (their monthly statement line). */
export const walletPayouts = pgTable('wallet_payouts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  period: text('period').notNull(),
  currency: text('currency').notNull(),
  amountMinor: money('amount_minor').notNull(),
  rewardCount: integer('reward_count').notNull(),
  entryId: uuid('entry_id').notNull(),
  createdAt: createdAt(),
});

/** A researcher's payout method (a wallet currency; null: rewards wait) and public profile switch. */
export const researcherSettings = pgTable('researcher_settings', {
  userId: uuid('user_id').primaryKey(),
  payoutCurrency: text('payout_currency'),
  profilePublic: boolean('profile_public').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// Social sign-in (modules/federation).

/** An outside account (Google, GitHub...) that signs in to one of ours; one per provider and account. */
export const socialIdentities = pgTable(
  'social_identities',
  {
    provider: text('provider').notNull(),
    /** The provider's stable id of the person (`sub`, GitHub's numeric id...), never the email. */
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.provider, table.subject] }), uniqueIndex('social_identities_user_provider_key').on(table.userId, table.provider)],
);

/**
 * A social sign-up between the provider's answer and `/create-user`: who the provider said
 * this is, and, when the person gives an email the provider did not prove, its mailed code.
 * No account exists until the email is proven.
 */
export const socialSignups = pgTable('social_signups', {
  id: uuid('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  provider: text('provider').notNull(),
  subject: text('subject').notNull(),
  providerEmail: text('provider_email'),
  providerEmailVerified: boolean('provider_email_verified').notNull(),
  fullName: text('full_name').notNull(),
  /** The email and name given on /create-user, waiting for the code. */
  email: text('email'),
  chosenName: text('chosen_name'),
  language: text('language'),
  codeHash: text('code_hash'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

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

// ---------------------------------------------------------------------------------------------
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
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
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
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
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
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
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
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
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

/**
 * Moderators of a product's websites: one live row per product client, website and
 * email (a revoked one is history); pending until the invited person accepts the mailed link
 * (its token stored only as a SHA-256 hash); accepted rows name the account that gets the
 * website's security-analysis notifications.
 */
export const websiteModerators = pgTable(
  'website_moderators',
  {
    id: uuid('id').primaryKey(),
    clientId: text('client_id').notNull(),
    serviceScope: text('service_scope').notNull(),
    websiteId: text('website_id').notNull(),
    websiteName: text('website_name').notNull(),
    email: text('email').notNull(),
    language: text('language'),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    signupClaimedAt: timestamp('signup_claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('website_moderators_token_key').on(table.tokenHash),
    uniqueIndex('website_moderators_live_key').on(table.clientId, table.websiteId, table.email).where(sql`${table.revokedAt} IS NULL`),
    index('website_moderators_email_idx').on(table.email),
    index('website_moderators_user_idx').on(table.userId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Operators (migration 0028_operators): roles on accounts, their admin-scoped API keys and the
// operator audit log (append-only: a trigger refuses changes but the purge's anonymisation).

/** One row per account and operator role (`owner`, `support`, `finance`). */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'operator_roles_pkey', columns: [table.userId, table.role] })],
);

/** An operator's API key: the personal keys' format, stored only as SHA-256, limited to admin scopes. */
export const operatorApiKeys = pgTable(
  'operator_api_keys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
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

/**
 * Events to products (migration 0031_webhooks, modules/webhooks): an outside app's endpoint and
 * the events it chose; the secret sealed with the data key (needed in clear to sign).
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  clientId: text('client_id')
    .primaryKey()
    .references(() => oauthClients.clientId, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per event and endpoint, written by the migration's triggers in the transaction of the
 * change; `eventId` is the webhook-id a receiver drops duplicates by; a person's (`subject`)
 * deliveries to one endpoint go out one at a time in `id` order.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: uuid('event_id').notNull(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    subject: uuid('subject').notNull(),
    payload: jsonb('payload').$type<{ type: string; timestamp: string; data: Record<string, unknown> }>().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt, table.id).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_order_idx').on(table.clientId, table.subject, table.id).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_client_idx').on(table.clientId, sql`${table.id} DESC`),
    index('webhook_deliveries_subject_idx').on(table.subject),
    check('webhook_deliveries_status_check', sql`${table.status} IN ('pending', 'delivered', 'failed')`),
  ],
);

/**
 * Every app a person ever allowed (migration 0036_webhook_deletion_audience, filled by a trigger
 * on the provider's grants): the account's deletion is announced to each, even after the grant
 * expired or was swept, then the rows go.
 */
export const webhookDeletionAudiences = pgTable(
  'webhook_deletion_audiences',
  {
    accountId: text('account_id').notNull(),
    clientId: text('client_id').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'webhook_deletion_audiences_pkey', columns: [table.accountId, table.clientId] })],
);
