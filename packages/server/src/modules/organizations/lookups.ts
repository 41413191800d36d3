import { auditReaderRoles } from '@portal/contracts';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizationMembers, organizations } from '../../db/schema';

// Lookups other modules make of organizations (the audit log's: whose events it keeps, who reads it).

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
 * The organizations this person administers: an owner or admin member (by email or account),
 * or, for organizations made before roles, the organization's own admin (admin_user_id or
 * admin_email) when no membership row of theirs says otherwise.
 */
export async function administeredOrganizations(db: Database, userId: string, email: string): Promise<Array<{ id: string; name: string; role: 'owner' | 'admin' }>> {
  const address = email.trim().toLowerCase();
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, role: organizationMembers.role, adminUserId: organizations.adminUserId, adminEmail: organizations.adminEmail })
    .from(organizations)
    .leftJoin(
      organizationMembers,
      and(eq(organizationMembers.organizationId, organizations.id), or(eq(organizationMembers.email, address), eq(organizationMembers.userId, userId))),
    )
    .where(or(inArray(organizationMembers.role, [...auditReaderRoles]), eq(organizations.adminUserId, userId), eq(sql`lower(${organizations.adminEmail})`, address)))
    .orderBy(organizations.name, organizations.id);
  const found = new Map<string, { id: string; name: string; role: 'owner' | 'admin' }>();
  for (const row of rows) {
    const role = row.role === 'owner' || row.role === 'admin' ? row.role : row.role === null ? 'admin' : null;
    if (role && !found.has(row.id)) found.set(row.id, { id: row.id, name: row.name, role });
  }
  return [...found.values()];
}
