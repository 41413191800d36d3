// Every table of the database, gathered: each module declares the tables it writes in its own
// `modules/<m>/tables.ts` (the platform's in `platform/<x>/tables.ts`), and this file re-exports
// them all for drizzle-kit (drizzle.config.ts) and the database client. schema.test.ts fails
// when a tables file is missing here.

export * from '../modules/users/tables';
export * from '../modules/sessions/tables';
export * from './one-time-tokens';
export * from '../platform/mail/tables';
export * from '../modules/mfa/tables';
export * from '../modules/passkeys/tables';
export * from '../modules/account/tables';
export * from '../modules/api-keys/tables';
export * from '../modules/notifications/tables';
export * from '../modules/oauth/tables';
export * from '../modules/organizations/tables';
export * from '../modules/billing/tables';
export * from '../platform/idempotency/tables';
export * from '../platform/payments/tables';
export * from '../modules/wallet/tables';
export * from '../modules/federation/tables';
export * from '../modules/audit/tables';
export * from '../modules/company-sso/tables';
export * from '../modules/moderators/tables';
export * from '../modules/operators/tables';
export * from '../modules/admin-dashboard/tables';
export * from '../modules/webhooks/tables';
