import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DatabaseExecutor } from './client';

/** A table of one settings row per organization, with the times it was made and last changed. */
type OrganizationSettingsTable = PgTable & { organizationId: PgColumn; createdAt: PgColumn; updatedAt: PgColumn };

/**
 * Saves an organization's settings row in one statement (its SSO connection, its on-premise
 * deployment): made now, or, when the organization has one already, its settings replaced and
 * `updatedAt` moved (`createdAt` stays). Returns the row as saved.
 */
export async function upsertOrganizationSettings<T extends OrganizationSettingsTable>(
  db: DatabaseExecutor,
  table: T,
  organizationId: string,
  settings: Omit<T['$inferInsert'], 'organizationId' | 'createdAt' | 'updatedAt'>,
  now: Date,
): Promise<T['$inferSelect']> {
  const rows = await db
    .insert(table)
    .values({ organizationId, ...settings, createdAt: now, updatedAt: now } as T['$inferInsert'])
    .onConflictDoUpdate({ target: table.organizationId, set: { ...settings, updatedAt: now } })
    .returning();
  return (rows as Array<T['$inferSelect']>)[0]!;
}
