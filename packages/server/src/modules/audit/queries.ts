import { auditReaderRoles } from '@portal/contracts';
import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizationAuditEvents, organizationMembers, organizations } from '../../db/schema';

export type AuditEventRow = typeof organizationAuditEvents.$inferSelect;
export type NewAuditEventRow = typeof organizationAuditEvents.$inferInsert;

/** The filters as the service checked them. */
export interface AuditFilter {
  actions?: string[];
  /** Part of the actor's or the target's email, lower-case. */
  email?: string;
  from?: Date;
  /** Exclusive. */
  before?: Date;
}

/** A keyset position: the last row of the previous page. */
export interface AuditCursor {
  occurredAt: Date;
  id: number;
}


/** `%`, `_` and `\` typed by a person match themselves. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

function conditions(organizationId: string, filter: AuditFilter, after?: AuditCursor): SQL {
  const parts: Array<SQL | undefined> = [eq(organizationAuditEvents.organizationId, organizationId)];
  if (filter.actions?.length) parts.push(inArray(organizationAuditEvents.action, filter.actions));
  if (filter.email) {
    const pattern = `%${likeEscaped(filter.email)}%`;
    parts.push(or(ilike(organizationAuditEvents.actorEmail, pattern), ilike(organizationAuditEvents.targetEmail, pattern)));
  }
  if (filter.from) parts.push(gte(organizationAuditEvents.occurredAt, filter.from));
  if (filter.before) parts.push(lt(organizationAuditEvents.occurredAt, filter.before));
  if (after) parts.push(sql`(${organizationAuditEvents.occurredAt}, ${organizationAuditEvents.id}) < (${after.occurredAt.toISOString()}::timestamptz, ${after.id})`);
  return and(...parts)!;
}

/** The one write: through the database or a caller's transaction. */
export async function insertAuditEvent(db: Pick<Database, 'insert'>, row: NewAuditEventRow): Promise<void> {
  await db.insert(organizationAuditEvents).values(row);
}

export function auditQueries(db: Database) {
  return {
    /**
     * The organization of a member's email: one lookup on the unique index of
     * organization_members.email (what a sign-in of someone in no organization costs).
     */
    async organizationOfMember(email: string): Promise<string | undefined> {
      const [row] = await db
        .select({ organizationId: organizationMembers.organizationId })
        .from(organizationMembers)
        .where(eq(organizationMembers.email, email.trim().toLowerCase()))
        .limit(1);
      return row?.organizationId;
    },

    /**
     * The organizations this person administers: an owner or admin member (by email or account),
     * or, for organizations made before roles, the organization's own admin (admin_user_id or
     * admin_email) when no membership row of theirs says otherwise.
     */
    async administered(userId: string, email: string): Promise<Array<{ id: string; name: string; role: 'owner' | 'admin' }>> {
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
    },

    /** One page, newest first, after the cursor. */
    async page(organizationId: string, filter: AuditFilter, limit: number, after?: AuditCursor): Promise<AuditEventRow[]> {
      return db
        .select()
        .from(organizationAuditEvents)
        .where(conditions(organizationId, filter, after))
        .orderBy(desc(organizationAuditEvents.occurredAt), desc(organizationAuditEvents.id))
        .limit(limit);
    },
  };
}
