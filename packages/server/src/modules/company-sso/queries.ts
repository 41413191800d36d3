import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { DatabaseExecutor } from '../../db/client';
import type { SignInMembership } from '../auth';
import { companySsoConnections, companySsoDomains, companySsoIdentities, companySsoRequests, organizationMembers, users } from '../../db/schema';
import { rowsOfAccount } from '../organizations';
import { identifierColumn, identifierLookup, type UserRow } from '../users';
import { isUniqueViolation } from '../../db/errors';
import { upsertOrganizationSettings } from '../../db/upsert-settings';

export type ConnectionRow = typeof companySsoConnections.$inferSelect;
export type DomainRow = typeof companySsoDomains.$inferSelect;
export type ConnectionSettings = Omit<typeof companySsoConnections.$inferInsert, 'organizationId' | 'createdAt' | 'updatedAt' | 'requireSso'>;

/** The organization a sign-in's account is a member of and whether it requires SSO, as one row reads it (its joins below). */
const membershipColumns = { organizationId: organizationMembers.organizationId, ssoRequired: sql<boolean>`coalesce(${companySsoConnections.requireSso}, false)` };
const toMembership = (row: { organizationId: string | null; ssoRequired: boolean }): SignInMembership | undefined =>
  row.organizationId === null ? undefined : { organizationId: row.organizationId, ssoRequired: row.ssoRequired === true };

/** With several rows (one by id, another by email), an organization that requires SSO decides: any of them binds the account. */
const bindingFirst = sql`${membershipColumns.ssoRequired} desc`;

export function companySsoQueries(db: DatabaseExecutor) {
  // Prepared on first use: every sign-in asks one of these.
  let membership: ReturnType<typeof prepareMembership> | undefined;
  function prepareMembership() {
    return db
      .select(membershipColumns)
      .from(organizationMembers)
      .leftJoin(companySsoConnections, eq(companySsoConnections.organizationId, organizationMembers.organizationId))
      .where(rowsOfAccount(sql.placeholder('userId'), sql.placeholder('email')))
      .orderBy(bindingFirst)
      .limit(1)
      .prepare('sign_in_membership');
  }
  let ssoRequired: ReturnType<typeof prepareSsoRequired> | undefined;
  function prepareSsoRequired() {
    return db
      .select({ ssoRequired: membershipColumns.ssoRequired })
      .from(users)
      .innerJoin(organizationMembers, rowsOfAccount(users.id, users.email))
      .leftJoin(companySsoConnections, eq(companySsoConnections.organizationId, organizationMembers.organizationId))
      .where(eq(users.id, sql.placeholder('userId')))
      .orderBy(bindingFirst)
      .limit(1)
      .prepare('session_sso_required');
  }
  const accountStatements = new Map<'email' | 'username', ReturnType<typeof prepareAccount>>();
  function prepareAccount(by: 'email' | 'username') {
    return db
      .select({ user: users, ...membershipColumns })
      .from(users)
      .leftJoin(organizationMembers, rowsOfAccount(users.id, users.email))
      .leftJoin(companySsoConnections, eq(companySsoConnections.organizationId, organizationMembers.organizationId))
      .where(eq(identifierColumn(by), sql.placeholder('value')))
      // One account (email and username are unique), its rows ordered: the limit keeps the binding one.
      .orderBy(bindingFirst)
      .limit(1)
      .prepare(`sign_in_account_by_${by}`);
  }

  return {
    async connectionOf(organizationId: string): Promise<ConnectionRow | undefined> {
      const [row] = await db.select().from(companySsoConnections).where(eq(companySsoConnections.organizationId, organizationId)).limit(1);
      return row;
    },

    async connectionByIdentifier(identifier: string): Promise<ConnectionRow | undefined> {
      const [row] = await db.select().from(companySsoConnections).where(eq(companySsoConnections.identifier, identifier.toLowerCase())).limit(1);
      return row;
    },

    /** The connection of the organization that verified this email domain. */
    async connectionByVerifiedDomain(domain: string): Promise<ConnectionRow | undefined> {
      const [row] = await db
        .select({ connection: companySsoConnections })
        .from(companySsoDomains)
        .innerJoin(companySsoConnections, eq(companySsoConnections.organizationId, companySsoDomains.organizationId))
        .where(and(eq(companySsoDomains.domain, domain.toLowerCase()), isNotNull(companySsoDomains.verifiedAt)))
        .limit(1);
      return row?.connection;
    },

    /** Sets the organization's connection (one per organization); 'identifier_taken' when another has the identifier. */
    async upsertConnection(organizationId: string, settings: ConnectionSettings, now: Date): Promise<ConnectionRow | 'identifier_taken'> {
      try {
        return await upsertOrganizationSettings(db, companySsoConnections, organizationId, settings, now);
      } catch (error) {
        if (isUniqueViolation(error)) return 'identifier_taken';
        throw error;
      }
    },

    async setRequireSso(organizationId: string, requireSso: boolean, now: Date): Promise<boolean> {
      const rows = await db.update(companySsoConnections).set({ requireSso, updatedAt: now }).where(eq(companySsoConnections.organizationId, organizationId)).returning({ id: companySsoConnections.organizationId });
      return rows.length > 0;
    },

    /**
     * The organization this account is a member of (its rows: `rowsOfAccount`) and whether it
     * requires SSO, in one prepared statement on organization_members' indexes of user_id and
     * email: every sign-in asks it once, and the organization's audit log takes the organization
     * from the same answer.
     */
    async membershipOf(account: { id: string; email: string }): Promise<SignInMembership | undefined> {
      const [row] = await (membership ??= prepareMembership()).execute({ userId: account.id, email: account.email.trim().toLowerCase() });
      return row && toMembership(row);
    },

    /**
     * Whether an organization that requires SSO binds the account (by `rowsOfAccount`), read by
     * its id: what a session just made is checked against (sessions' admission rule).
     */
    async ssoRequiredOf(userId: string): Promise<boolean> {
      const [row] = await (ssoRequired ??= prepareSsoRequired()).execute({ userId });
      return row?.ssoRequired === true;
    },

    /**
     * Whether `email` is the address of a member row that names no account yet, of an
     * organization that requires SSO: the account that now holds the address is that member.
     */
    async pendingRowRequiresSso(email: string): Promise<boolean> {
      const [row] = await db
        .select({ organizationId: organizationMembers.organizationId })
        .from(organizationMembers)
        .innerJoin(companySsoConnections, eq(companySsoConnections.organizationId, organizationMembers.organizationId))
        .where(and(isNull(organizationMembers.userId), eq(organizationMembers.email, email.trim().toLowerCase()), eq(companySsoConnections.requireSso, true)))
        .limit(1);
      return row !== undefined;
    },

    /**
     * The account an identifier typed at sign-in names (users' own rule: an email, else a
     * username) and what `membershipOf` answers for it, in one prepared statement: a
     * password sign-in asks both, and one round trip less is CPU less on both ends.
     */
    async accountWithMembership(identifier: string): Promise<{ user: UserRow; membership: SignInMembership | undefined } | undefined> {
      const { by, value } = identifierLookup(identifier);
      let statement = accountStatements.get(by);
      if (!statement) accountStatements.set(by, (statement = prepareAccount(by)));
      const [row] = await statement.execute({ value });
      return row && { user: row.user, membership: toMembership(row) };
    },

    async domainsOf(organizationId: string): Promise<DomainRow[]> {
      return db.select().from(companySsoDomains).where(eq(companySsoDomains.organizationId, organizationId)).orderBy(companySsoDomains.domain);
    },

    async domain(organizationId: string, domain: string): Promise<DomainRow | undefined> {
      const [row] = await db.select().from(companySsoDomains).where(and(eq(companySsoDomains.organizationId, organizationId), eq(companySsoDomains.domain, domain))).limit(1);
      return row;
    },

    /** Claims a domain for the organization with its DNS token (the existing claim, token kept, when it has one). */
    async claimDomain(organizationId: string, domain: string, dnsToken: string, now: Date): Promise<DomainRow> {
      await db.insert(companySsoDomains).values({ organizationId, domain, dnsToken, createdAt: now }).onConflictDoNothing();
      const [row] = await db.select().from(companySsoDomains).where(and(eq(companySsoDomains.organizationId, organizationId), eq(companySsoDomains.domain, domain)));
      return row!;
    },

    /** Marks the claim verified; false when another organization verified the domain first (the partial unique index decides). */
    async markVerified(organizationId: string, domain: string, how: string, now: Date): Promise<boolean> {
      try {
        const rows = await db
          .update(companySsoDomains)
          .set({ verifiedAt: now, verifiedBy: how })
          .where(and(eq(companySsoDomains.organizationId, organizationId), eq(companySsoDomains.domain, domain)))
          .returning({ domain: companySsoDomains.domain });
        return rows.length > 0;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Drops the organization's claim (verified or not); whether there was one. */
    async removeDomain(organizationId: string, domain: string): Promise<boolean> {
      const rows = await db.delete(companySsoDomains).where(and(eq(companySsoDomains.organizationId, organizationId), eq(companySsoDomains.domain, domain))).returning({ domain: companySsoDomains.domain });
      return rows.length > 0;
    },

    /** Whether this organization verified this domain. */
    async verifiedBy(organizationId: string, domain: string): Promise<boolean> {
      const [row] = await db
        .select({ domain: companySsoDomains.domain })
        .from(companySsoDomains)
        .where(and(eq(companySsoDomains.organizationId, organizationId), eq(companySsoDomains.domain, domain.toLowerCase()), isNotNull(companySsoDomains.verifiedAt)))
        .limit(1);
      return Boolean(row);
    },

    /** When the account joined the organization (its member row was made); undefined when it is not a member. */
    async joinedAt(organizationId: string, userId: string, email: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ joinedAt: organizationMembers.createdAt })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.organizationId, organizationId), rowsOfAccount(userId, email.trim().toLowerCase())))
        .limit(1);
      return row?.joinedAt;
    },

    /** Whether the account is a member of this organization now (its row by account or by email). */
    async isMember(organizationId: string, userId: string, email: string): Promise<boolean> {
      const [row] = await db
        .select({ email: organizationMembers.email })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.organizationId, organizationId), rowsOfAccount(userId, email.trim().toLowerCase())))
        .limit(1);
      return Boolean(row);
    },

    async findIdentity(organizationId: string, subject: string) {
      const [row] = await db.select().from(companySsoIdentities).where(and(eq(companySsoIdentities.organizationId, organizationId), eq(companySsoIdentities.subject, subject))).limit(1);
      return row;
    },

    /** Links the IdP's subject to an account; false when the subject or the account is linked already. */
    async link(row: typeof companySsoIdentities.$inferInsert): Promise<boolean> {
      const inserted = await db.insert(companySsoIdentities).values(row).onConflictDoNothing().returning({ subject: companySsoIdentities.subject });
      return inserted.length > 0;
    },

    async touch(organizationId: string, subject: string, now: Date): Promise<void> {
      await db.update(companySsoIdentities).set({ lastUsedAt: now }).where(and(eq(companySsoIdentities.organizationId, organizationId), eq(companySsoIdentities.subject, subject)));
    },

    // SAML requests and the handoff to /sso/redirect.

    async insertRequest(row: { id: string; organizationId: string; brand: string; expiresAt: Date }): Promise<void> {
      await db.delete(companySsoRequests).where(lt(companySsoRequests.expiresAt, new Date(row.expiresAt.getTime() - 24 * 60 * 60 * 1000)));
      await db.insert(companySsoRequests).values(row);
    },

    async liveRequest(id: string, now: Date) {
      const [row] = await db.select().from(companySsoRequests).where(and(eq(companySsoRequests.id, id), isNull(companySsoRequests.usedAt), gt(companySsoRequests.expiresAt, now))).limit(1);
      return row;
    },

    /**
     * Uses a request up with the identity its response asserted and the handoff code's hash, in
     * one statement: a replayed response (the same InResponseTo) finds it used and gets nothing.
     */
    async answerRequest(id: string, organizationId: string, answer: { subject: string; email: string | null; fullName: string; handoffHash: string; handoffExpiresAt: Date }, now: Date) {
      const [row] = await db
        .update(companySsoRequests)
        .set({ usedAt: now, ...answer })
        .where(and(eq(companySsoRequests.id, id), eq(companySsoRequests.organizationId, organizationId), isNull(companySsoRequests.usedAt), gt(companySsoRequests.expiresAt, now)))
        .returning();
      return row;
    },

    /** Takes the handoff code of the request this browser started once (one statement): the identity the ACS accepted. */
    async takeHandoff(handoffHash: string, requestId: string, now: Date) {
      const [row] = await db
        .update(companySsoRequests)
        .set({ handoffUsedAt: now })
        .where(and(eq(companySsoRequests.id, requestId), eq(companySsoRequests.handoffHash, handoffHash), isNull(companySsoRequests.handoffUsedAt), gt(companySsoRequests.handoffExpiresAt, now)))
        .returning();
      return row;
    },

    /** How many identities an organization asserted (tests and the CLI). */
    async identityCount(organizationId: string): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(companySsoIdentities).where(eq(companySsoIdentities.organizationId, organizationId));
      return row?.n ?? 0;
    },
  };
}

export type CompanySsoQueries = ReturnType<typeof companySsoQueries>;
