import type { OrganizationRole } from '@portal/contracts';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Database, DatabaseExecutor, DatabaseTransaction } from '../../db/client';
import { organizationMembers, organizations, users } from '../../db/schema';

/** A membership or role change, reported to the injected hook (the integrator binds it to the audit log). */
export interface MembershipChange {
  organizationId: string;
  /** Who did it (null for the operator CLI or a change nobody signed in made). */
  actorUserId: string | null;
  action: 'member_invited' | 'member_joined' | 'member_removed' | 'member_left' | 'role_changed' | 'invitation_revoked';
  targetEmail: string;
  detail?: Record<string, unknown>;
}
export type MembershipChangeHook = (change: MembershipChange) => Promise<void> | void;

/**
 * Told once a person became a member (company SSO ends their sessions when the organization
 * requires it). Awaited, and its failure is the request's: unlike the audit hook, never logged
 * and passed over, since a session it failed to end would stand.
 */
export type MemberJoinedHook = (organizationId: string, email: string) => Promise<void>;

export interface Membership {
  organizationId: string;
  organizationName: string;
  email: string;
  role: OrganizationRole;
}

type Tx = DatabaseTransaction;
type Executor = DatabaseExecutor;

const membershipColumns = {
  organizationId: organizationMembers.organizationId,
  organizationName: organizations.name,
  email: organizationMembers.email,
  role: organizationMembers.role,
};

async function membershipBy(db: Executor, condition: ReturnType<typeof eq>): Promise<Membership | undefined> {
  const [row] = await db.select(membershipColumns).from(organizationMembers).innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId)).where(condition).limit(1);
  return row && { ...row, role: row.role as OrganizationRole };
}

/** The membership of an email (members are kept by email: an account may join before it exists). */
export const membershipOfEmail = (db: Executor, email: string) => membershipBy(db, eq(organizationMembers.email, email.trim().toLowerCase()));

/** The membership of a signed-in account: its email's row, unless that row names another account (left under an address it gave up). */
export const membershipOfAccount = (db: Executor, account: { id: string; email: string }) =>
  membershipBy(db, and(eq(organizationMembers.email, account.email.trim().toLowerCase()), or(isNull(organizationMembers.userId), eq(organizationMembers.userId, account.id)))!);

/** Members of one organization, owners first, with the account's name when there is one. */
export async function listMembers(db: Database, organizationId: string) {
  return db
    .select({ email: organizationMembers.email, role: organizationMembers.role, joinedAt: organizationMembers.createdAt, name: users.fullName })
    .from(organizationMembers)
    .leftJoin(users, eq(users.email, organizationMembers.email))
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(sql`CASE ${organizationMembers.role} WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`, asc(organizationMembers.createdAt), asc(organizationMembers.email));
}

/**
 * Runs `change` with the organization's row locked: every change of membership or role takes
 * this lock first, so the owner count its statement checks cannot change under it (two owners
 * demoting each other at once: the second sees the first's result and is refused).
 */
export function withOrganizationLocked<T>(db: Database, organizationId: string, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for('update');
    return change(tx);
  });
}

/** Whether this statement's target is an owner other owners stay behind: the last owner is never removed or demoted. */
const notLastOwner = (organizationId: string) =>
  sql`(${organizationMembers.role} <> 'owner' OR (SELECT count(*) FROM ${organizationMembers} AS owners WHERE owners.organization_id = ${organizationId} AND owners.role = 'owner') > 1)`;

/** Removes a member unless it is the organization's last owner: one statement; the removed role, or undefined when refused or absent. */
export async function deleteMember(tx: Tx, organizationId: string, email: string): Promise<OrganizationRole | undefined> {
  const [row] = await tx
    .delete(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.email, email), notLastOwner(organizationId)))
    .returning({ role: organizationMembers.role });
  return row?.role as OrganizationRole | undefined;
}

/** Sets a member's role unless that demotes the last owner: one statement; whether it changed. */
export async function updateRole(tx: Tx, organizationId: string, email: string, role: OrganizationRole): Promise<boolean> {
  const guard = role === 'owner' ? sql`true` : notLastOwner(organizationId);
  const rows = await tx
    .update(organizationMembers)
    .set({ role })
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.email, email), guard))
    .returning({ email: organizationMembers.email });
  return rows.length > 0;
}

/** The role of a member in one organization (inside a locked change). */
export async function roleIn(db: Executor, organizationId: string, email: string): Promise<OrganizationRole | undefined> {
  const [row] = await db
    .select({ role: organizationMembers.role })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.email, email)))
    .limit(1);
  return row?.role as OrganizationRole | undefined;
}

/** The role of an account in an organization: by its user id, or its email for members added before the account existed (a row naming another account is never theirs). */
export async function roleOfUser(db: Database, userId: string, organizationId: string): Promise<OrganizationRole | undefined> {
  const [row] = await db
    .select({ role: organizationMembers.role })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, userId))
    .where(and(eq(organizationMembers.organizationId, organizationId), sql`(${organizationMembers.userId} = ${userId} OR (${organizationMembers.userId} IS NULL AND ${organizationMembers.email} = ${users.email}))`))
    .limit(1);
  return row?.role as OrganizationRole | undefined;
}
