import { auditReaderRoles } from '@portal/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizationMembers, organizations, users } from '../../db/schema';
import type { BoundSince } from '../sessions';
import { rowsOfAccount } from './member-rows';

// Lookups other modules make of organizations (the audit log's: whose events it keeps, who reads it;
// company SSO's: whose sessions its requirement ends).

/**
 * The organization of a member's email: one lookup on the unique index of
 * organization_members.email (what a sign-in of someone in no organization costs).
 */
export async function organizationOfMember(db: Database, email: string): Promise<string | undefined> {
  const [row] = await db
    .select({ organizationId: organizationMembers.organizationId })
    .from(organizationMembers)
    .where(eq(organizationMembers.email, email.trim().toLowerCase()))
    .limit(1);
  return row?.organizationId;
}

/**
 * The organizations this person administers: those where a current membership row of theirs
 * (by email or account) says owner or admin. The organization's creator columns (admin_email,
 * admin_user_id) only say who made it: a creator removed or demoted administers nothing.
 */
export async function administeredOrganizations(db: Database, userId: string, email: string): Promise<Array<{ id: string; name: string; role: 'owner' | 'admin' }>> {
  const address = email.trim().toLowerCase();
  const rows = await db
    .selectDistinctOn([organizations.name, organizations.id], { id: organizations.id, name: organizations.name, role: organizationMembers.role })
    .from(organizations)
    .innerJoin(organizationMembers, eq(organizationMembers.organizationId, organizations.id))
    .where(and(rowsOfAccount(userId, address), inArray(organizationMembers.role, [...auditReaderRoles])))
    .orderBy(organizations.name, organizations.id);
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role === 'owner' ? 'owner' : 'admin' }));
}

/**
 * The accounts of an organization's members (or of one member's email), with when each joined:
 * each row's account by the rule the sign-in's SSO gate reads (`rowsOfAccount`). A row that names
 * an account counts for it alone, not for whoever took the address it was left under since.
 */
export async function memberAccounts(db: Database, organizationId: string, email?: string): Promise<BoundSince[]> {
  return db
    .selectDistinct({ userId: users.id, since: organizationMembers.createdAt })
    .from(organizationMembers)
    .innerJoin(users, rowsOfAccount(users.id, users.email))
    .where(and(eq(organizationMembers.organizationId, organizationId), email === undefined ? undefined : eq(organizationMembers.email, email.trim().toLowerCase())));
}
