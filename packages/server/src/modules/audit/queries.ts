import { and, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizationAuditEvents } from './tables';

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
