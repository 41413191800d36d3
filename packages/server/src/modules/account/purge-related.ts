import { and, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import {
  apiKeys,
  avatars,
  billingCustomers,
  companySsoIdentities,
  companySsoRequests,
  idempotencyKeys,
  mailOutbox,
  notifications,
  oidcModels,
  oneTimeTokens,
  orders,
  organizationAuditEvents,
  operatorApiKeys,
  operatorAuditEvents,
  operatorRoles,
  organizationInvitations,
  organizationMembers,
  organizations,
  passkeys,
  paymentMethods,
  recoveryCodes,
  researcherSettings,
  sessions,
  socialIdentities,
  socialSignups,
  subscriptions,
  trialUsages,
  walletEntries,
  walletKnownAddresses,
  walletPartnerTransfers,
  webauthnChallenges,
  websiteModerators,
} from '../../db/schema';

export type PurgeTransaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The address a purged account keeps: unique, and undeliverable by definition (RFC 6761 `.invalid`). */
export const purgedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/** Emails are stored lower-cased, but rows written from outside (invitations, identity providers) may not be. */
const sameEmail = (column: PgColumn, email: string): SQL => sql`lower(${column}) = ${email}`;

/**
 * Everything of one account outside its own row, as db/personal-columns/ lists it: the
 * account's rows are deleted, the rows that record something for others (organizations, their
 * audit log, invoices, the ledger) lose the person's name, addresses, IP, browser and notes.
 * Runs inside the purge's transaction, before the account row is emptied (it matches by the
 * account's email too). The provider's rows (grants, tokens) go after, in purgeGrants.
 */
export async function purgeRelatedRows(tx: PurgeTransaction, account: { id: string; email: string }, now: Date): Promise<void> {
  const { id } = account;
  const email = account.email.toLowerCase();
  const anonymous = purgedEmail(id);

  // Sessions go with their proofs and provider-session links (cascade).
  for (const table of [sessions, passkeys, webauthnChallenges, apiKeys, notifications, avatars, oneTimeTokens, recoveryCodes, socialIdentities, companySsoIdentities, billingCustomers, researcherSettings, walletKnownAddresses, operatorRoles, operatorApiKeys]) {
    await tx.delete(table).where(eq(table.userId, id));
  }
  await tx.delete(websiteModerators).where(or(eq(websiteModerators.userId, id), sameEmail(websiteModerators.email, email)));
  await tx.delete(organizationMembers).where(or(eq(organizationMembers.userId, id), sameEmail(organizationMembers.email, email)));
  await tx.delete(organizationInvitations).where(sameEmail(organizationInvitations.email, email));
  await tx.update(organizationInvitations).set({ invitedBy: null }).where(eq(organizationInvitations.invitedBy, id));
  await tx.delete(socialSignups).where(or(sameEmail(socialSignups.email, email), sameEmail(socialSignups.providerEmail, email)));
  await tx.delete(companySsoRequests).where(sameEmail(companySsoRequests.email, email));
  await tx.delete(mailOutbox).where(sameEmail(mailOutbox.to, email));
  await tx.delete(trialUsages).where(eq(trialUsages.person, `email:${email}`));
  // Idempotency keys are scoped `<action>:<user id>` (billing); a stored answer may hold an address.
  await tx.delete(idempotencyKeys).where(sql`${idempotencyKeys.scope} like ${`%:${id}`}`);

  // Nothing is charged for a deleted account; its cards go (orders and subscriptions keep no link).
  await tx.update(subscriptions).set({ status: 'canceled', canceledAt: now, nextAttemptAt: null, updatedAt: now }).where(and(eq(subscriptions.userId, id), ne(subscriptions.status, 'canceled')));
  await tx.update(orders).set({ paymentMethodLabel: null }).where(eq(orders.userId, id));
  await tx.delete(paymentMethods).where(eq(paymentMethods.userId, id));

  await tx.update(organizations).set({ adminEmail: anonymous, adminUserId: null }).where(or(eq(organizations.adminUserId, id), sameEmail(organizations.adminEmail, email)));
  // The audit log's trigger allows exactly these changes (migration 0025). One statement, so two
  // purges naming each other (one the actor, the other the target) lock each row only once.
  const events = organizationAuditEvents;
  const asActor = or(eq(events.actorUserId, id), sameEmail(events.actorEmail, email))!;
  const asTarget = or(eq(events.targetUserId, id), sameEmail(events.targetEmail, email))!;
  await tx
    .update(events)
    .set({
      actorEmail: sql`case when ${asActor} then ${anonymous} else ${events.actorEmail} end`,
      targetEmail: sql`case when ${asTarget} then ${anonymous} else ${events.targetEmail} end`,
      ip: sql`case when ${events.actorUserId} = ${id} then null else ${events.ip} end`,
      userAgent: sql`case when ${events.actorUserId} = ${id} then null else ${events.userAgent} end`,
    })
    .where(or(asActor, asTarget));

  // The operator audit log's trigger allows exactly these changes (migration 0028): what an
  // operator did stays, their address, IP and browser go.
  const operatorEvents = operatorAuditEvents;
  await tx
    .update(operatorEvents)
    .set({ actorEmail: anonymous, ip: null, userAgent: null })
    .where(eq(operatorEvents.actorUserId, id));

  // The person's own words on money movements; where the money went stays with the books.
  await tx.update(walletEntries).set({ note: null }).where(eq(walletEntries.initiatedBy, id));
  await tx.update(walletPartnerTransfers).set({ note: null }).where(eq(walletPartnerTransfers.userId, id));
}

/**
 * The account's provider rows (grants, tokens, sessions): last, after the account row is
 * emptied, because the webhook triggers (migration 0034) send organization.member_removed and
 * user.deleted only to the apps the person has a grant with, looked up when the rows change.
 */
export async function purgeGrants(tx: PurgeTransaction, id: string): Promise<void> {
  await tx.delete(oidcModels).where(eq(oidcModels.accountId, id));
}
