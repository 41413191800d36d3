import { and, desc, eq, gte, ilike, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { OperatorRole } from '@portal/contracts';
import type { Database } from '../../db/client';
import { operatorAuditEvents, operatorRoles, users } from '../../db/schema';

export type OperatorAuditRow = typeof operatorAuditEvents.$inferSelect;
export type NewOperatorAuditRow = typeof operatorAuditEvents.$inferInsert;

/** Where an account stands as an operator, read fresh from the database on every admin call. */
export interface OperatorStanding {
  roles: OperatorRole[];
  twoFactor: boolean;
  /** Activated, not locked by an operator, not scheduled for deletion or purged. */
  usable: boolean;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  from?: Date;
  to?: Date;
}

/** `%` and `_` typed by an operator are matched as themselves. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export function operatorQueries(db: Database) {
  return {
    /** The account's roles and second factor in one read (no cache: a removed role stops at once, on every node). */
    async standingOf(userId: string): Promise<OperatorStanding | undefined> {
      const rows = await db
        .select({ role: operatorRoles.role, twoFactorMethod: users.twoFactorMethod, activatedAt: users.activatedAt, lockedAt: users.lockedAt, deletionRequestedAt: users.deletionRequestedAt, purgedAt: users.purgedAt })
        .from(users)
        .leftJoin(operatorRoles, eq(operatorRoles.userId, users.id))
        .where(eq(users.id, userId));
      const first = rows[0];
      if (!first) return undefined;
      return {
        roles: rows.flatMap((row) => (row.role ? [row.role as OperatorRole] : [])),
        twoFactor: first.twoFactorMethod !== null,
        usable: first.activatedAt !== null && !first.lockedAt && !first.deletionRequestedAt && !first.purgedAt,
      };
    },

    /** Adds a role; false when the account held it already. */
    async grant(userId: string, role: OperatorRole, now: Date): Promise<boolean> {
      const rows = await db.insert(operatorRoles).values({ userId, role, grantedAt: now }).onConflictDoNothing().returning({ userId: operatorRoles.userId });
      return rows.length > 0;
    },

    /**
     * Removes a role. The last owner's is refused: the owners' rows are locked first, so two
     * owners removing each other at once cannot both succeed.
     */
    async revoke(userId: string, role: OperatorRole): Promise<'revoked' | 'not_found' | 'last_owner'> {
      return db.transaction(async (tx) => {
        if (role === 'owner') {
          const owners = await tx.select({ userId: operatorRoles.userId }).from(operatorRoles).where(eq(operatorRoles.role, 'owner')).for('update');
          if (owners.some((owner) => owner.userId === userId) && owners.length <= 1) return 'last_owner';
        }
        const rows = await tx
          .delete(operatorRoles)
          .where(and(eq(operatorRoles.userId, userId), eq(operatorRoles.role, role)))
          .returning({ userId: operatorRoles.userId });
        return rows.length > 0 ? 'revoked' : 'not_found';
      });
    },

    async anyOperator(): Promise<boolean> {
      const [row] = await db.select({ userId: operatorRoles.userId }).from(operatorRoles).limit(1);
      return row !== undefined;
    },

    /** Every operator with their roles, by email. */
    async listOperators() {
      return db
        .select({ userId: users.id, email: users.email, fullName: users.fullName, role: operatorRoles.role, grantedAt: operatorRoles.grantedAt })
        .from(operatorRoles)
        .innerJoin(users, eq(users.id, operatorRoles.userId))
        .orderBy(users.email, operatorRoles.role);
    },

    async record(row: NewOperatorAuditRow): Promise<void> {
      await db.insert(operatorAuditEvents).values(row);
    },

    /** Newest first, `limit` entries older than the entry `before` (keyset paging by id). */
    async audit(filter: AuditFilter, limit: number, before?: number): Promise<OperatorAuditRow[]> {
      const events = operatorAuditEvents;
      const conditions: SQL[] = [];
      if (filter.actor) conditions.push(ilike(events.actorEmail, contains(filter.actor)));
      if (filter.action) conditions.push(ilike(events.action, contains(filter.action)));
      if (filter.target) conditions.push(sql`exists (select 1 from jsonb_each_text(${events.target}) as t(key, value) where t.value = ${filter.target})`);
      if (filter.from) conditions.push(gte(events.occurredAt, filter.from));
      if (filter.to) conditions.push(lte(events.occurredAt, filter.to));
      if (before !== undefined) conditions.push(lt(events.id, before));
      return db
        .select()
        .from(events)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(desc(events.id))
        .limit(limit);
    },
  };
}

export type OperatorQueries = ReturnType<typeof operatorQueries>;
