import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export type Database = ReturnType<typeof drizzlePglite<typeof schema>>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL URL, for work that needs its own connection (migrations). */
  url?: string;
  /** Runs a trivial query; throws when the database is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * PostgreSQL when a URL is given, else PGlite (PostgreSQL in WebAssembly) under `dataDir`.
 * Both speak the same SQL, so the schema, migrations and queries are one.
 * `pglite` may be passed in by tests that restore a migrated snapshot.
 */
export async function openDatabase(options: { url?: string; dataDir?: string; pglite?: PGlite }): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      url: options.url,
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  const client = options.pglite ?? (await PGlite.create(options.dataDir));
  const db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  };
}
