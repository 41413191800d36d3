import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { upsertOrganizationSettings } from '../../db/upsert-settings';
import { organizationDeployments, organizationMembers, organizations } from './tables';

export type OrganizationRow = typeof organizations.$inferSelect;
export type DeploymentRow = typeof organizationDeployments.$inferSelect;

export interface DeploymentSettings {
  baseApi: string;
  loginUrl: string;
  activated: boolean;
  requirePasswordless: boolean;
}

export function organizationQueries(db: Database) {
  return {
    /** The organization (enterprise) an email belongs to, if any. */
    async membershipOf(email: string): Promise<OrganizationRow | undefined> {
      const [row] = await db
        .select({ organization: organizations })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .where(eq(organizationMembers.email, email.toLowerCase()))
        .limit(1);
      return row?.organization;
    },

    async byId(id: string): Promise<OrganizationRow | undefined> {
      const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
      return row;
    },

    /** Organizations of this name (case-insensitive; names are not unique). */
    async findByName(name: string): Promise<OrganizationRow[]> {
      return db
        .select()
        .from(organizations)
        .where(eq(sql`lower(${organizations.name})`, name.trim().toLowerCase()))
        .limit(2);
    },

    /** A new organization with its admin as first member (its owner); null when the email already belongs to one (unique per email). */
    async createWithAdmin(input: { name: string; adminEmail: string; adminUserId: string | null }, now: Date): Promise<OrganizationRow | null> {
      return db.transaction(async (tx) => {
        const id = randomUUID();
        const email = input.adminEmail.toLowerCase();
        const [organization] = await tx.insert(organizations).values({ id, name: input.name, adminEmail: email, adminUserId: input.adminUserId, createdAt: now }).returning();
        const member = await tx
          .insert(organizationMembers)
          .values({ organizationId: id, email, userId: input.adminUserId, role: 'owner', createdAt: now })
          .onConflictDoNothing()
          .returning({ email: organizationMembers.email });
        if (member.length === 0) {
          await tx.delete(organizations).where(eq(organizations.id, id));
          return null;
        }
        return organization!;
      });
    },

    async addMember(organizationId: string, email: string, userId: string | null, now: Date): Promise<boolean> {
      const rows = await db
        .insert(organizationMembers)
        .values({ organizationId, email: email.toLowerCase(), userId, role: 'member', createdAt: now })
        .onConflictDoNothing()
        .returning({ email: organizationMembers.email });
      return rows.length > 0;
    },

    /** Registers the organization's on-premise deployment, or replaces its settings (one per organization). */
    async upsertDeployment(organizationId: string, settings: DeploymentSettings, now: Date): Promise<DeploymentRow> {
      return upsertOrganizationSettings(db, organizationDeployments, organizationId, settings, now);
    },

    /** The member of this email with its organization's deployment; undefined when not a member or no deployment. */
    async deploymentOfMember(email: string): Promise<{ email: string; userId: string | null; deployment: DeploymentRow } | undefined> {
      const [row] = await db
        .select({ email: organizationMembers.email, userId: organizationMembers.userId, deployment: organizationDeployments })
        .from(organizationMembers)
        .innerJoin(organizationDeployments, eq(organizationDeployments.organizationId, organizationMembers.organizationId))
        .where(eq(organizationMembers.email, email.trim().toLowerCase()))
        .limit(1);
      return row;
    },
  };
}
