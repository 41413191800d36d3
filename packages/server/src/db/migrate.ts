import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { DatabaseHandle } from './client';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Arbitrary constant: the advisory lock that lets only one node migrate at a time. */
const MIGRATION_LOCK = 727_001;

/** Applies the checked-in SQL migrations. Safe when several nodes start at once. */
export async function migrate(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db, { migrationsFolder });
    return;
  }
  // One dedicated connection: an advisory lock belongs to the connection that took it.
  const client = new pg.Client({ connectionString: handle.url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}
